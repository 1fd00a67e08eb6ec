import { renderToString, useStdout } from "ink";
import { useEffect, useLayoutEffect, useRef, type ReactElement } from "react";
import { eraseReflowed } from "../reflow.js";

/**
 * Keeps a narrowed terminal clean. Terminals such as tmux, iTerm2 and GNOME
 * Terminal re-wrap the lines on screen when they get narrower, so the live
 * region drawn last then takes more rows than Ink counts when it erases it, and
 * its top rows would stay behind above the new frame. On each narrowing, before
 * Ink redraws, this renders the last live region again at the old width to learn
 * the rows it takes now, and clears them.
 */
export function useReflowCleanup(liveRegion: ReactElement): void {
  const { stdout } = useStdout();
  const latest = useRef(liveRegion);
  useLayoutEffect(() => {
    latest.current = liveRegion;
  });
  useEffect(() => {
    let columns = stdout.columns;
    const onResize = () => {
      const before = columns;
      columns = stdout.columns;
      if (!before || !columns || columns >= before) return;
      const erase = eraseReflowed(renderToString(latest.current, { columns: before }), columns);
      if (erase !== "") stdout.write(erase);
    };
    // Ink listens for resizes since it was rendered: first in line, this runs before Ink redraws.
    stdout.prependListener("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout]);
}
