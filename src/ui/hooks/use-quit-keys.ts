import { useInput, useStdin } from "ink";

/**
 * `q` or Ctrl-C calls `onQuit` (Ink's own Ctrl-C exit is off: quitting must close the instance
 * first); `d` calls `onDashboardLink`, when given.
 */
export function useQuitKeys(onQuit: () => void, onDashboardLink?: () => void): void {
  const { isRawModeSupported } = useStdin();
  useInput(
    (input, key) => {
      if (input === "q" || (key.ctrl && input === "c")) onQuit();
      else if (input === "d") onDashboardLink?.();
    },
    { isActive: isRawModeSupported },
  );
}
