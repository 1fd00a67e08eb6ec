import { useStdout } from "ink";
import { useEffect, useState } from "react";

/** The terminal's height, kept current on resize (Ink itself re-lays out the width). */
export function useTerminalRows(fallback = 24): number {
  const { stdout } = useStdout();
  const [rows, setRows] = useState(() => stdout.rows || fallback);
  useEffect(() => {
    const onResize = () => setRows(stdout.rows || fallback);
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout, fallback]);
  return rows;
}
