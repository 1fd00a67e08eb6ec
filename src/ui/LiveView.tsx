import { useStdout } from "ink";
import { useLayoutEffect } from "react";
import { LiveRegion, type LiveRegionProps } from "./App.js";
import { useClockNow } from "./hooks/use-clock-now.js";
import { useLiveModel } from "./hooks/use-live-model.js";
import { useQuitKeys } from "./hooks/use-quit-keys.js";
import { useReflowCleanup } from "./hooks/use-reflow-cleanup.js";
import { useTerminalRows } from "./hooks/use-terminal-rows.js";
import type { LiveFeed } from "./live-feed.js";
import { visibleInFlight, type Printed } from "./model.js";
import { bannerRows, printedRows, rowText, type Row } from "./rows.js";
import type { Timers } from "../runtime/timers.js";
import { maskText } from "../domain/masking.js";

export interface LiveViewProps {
  /** What the bus announced, heard from before the view mounted. */
  feed: LiveFeed;
  url: string;
  /** The banner lines, printed once at the top. */
  banner: readonly string[];
  /** Finished lines the feed heard before the view mounted, printed under the banner in the first frame. */
  earlier?: readonly Printed[];
  colour: boolean;
  onQuit: () => void;
  /** A fresh one-time dashboard link, printed when `d` is pressed; absent, `d` does nothing. */
  dashboardLoginUrl?: () => string;
  stopping?: boolean;
  /** Longest wait between a bus event and the frame that shows it (default 100 ms: about 10 frames a second). */
  throttleMs?: number;
  /** The timers of the frames' throttle and the clock's 1 s tick (Node's by default; paysim's tests move their own). */
  timers?: Timers;
}

/** Lines the live region keeps for itself: its title, the "older not shown" line, the status line, spacing. */
const RESERVED_ROWS = 5;

/**
 * The rows in-flight events may fill: half of what the terminal has left. A
 * region as tall as the terminal would scroll each new request line out of
 * sight the moment it is printed; the other half keeps the newest ones on screen.
 */
function inFlightRows(terminalRows: number): number {
  return Math.max(2, Math.floor((terminalRows - RESERVED_ROWS) / 2));
}

/**
 * Whether the in-flight events fit at all. On a terminal too short for them the status line
 * (which counts them) is the whole live region: a region as tall as the terminal makes Ink
 * clear the screen and its scrollback on each frame.
 */
function inFlightFits(terminalRows: number): boolean {
  return terminalRows >= RESERVED_ROWS + 4;
}

/**
 * The live view wired to an instance: its feed, 1 s ticker, quit keys. Finished lines are written
 * above the live region as text, once, through Ink (which lifts the region over them) and kept
 * nowhere: a view left running for days holds no more than a busy minute's worth.
 */
export function LiveView({ feed, url, banner, earlier = [], colour, onQuit, dashboardLoginUrl, stopping = false, throttleMs = 100, timers }: LiveViewProps) {
  const { stdout, write } = useStdout();
  const print = (rows: readonly Row[]) => {
    if (rows.length === 0) return;
    const columns = stdout.columns || 80;
    write(rows.map((row) => `${rowText(row, { columns, colour })}\n`).join(""));
  };
  // The banner and what the feed heard before the mount, once, above the first frame.
  useLayoutEffect(() => {
    const now = feed.clock.now();
    print([...bannerRows(banner), ...earlier.flatMap((line) => printedRows(line, now))]);
  }, []);
  const snapshot = useLiveModel(feed, { throttleMs, timers, print: (lines, now) => print(lines.flatMap((line) => printedRows(line, now))) });
  const ticked = useClockNow(feed.clock, 1000, timers);
  const rows = useTerminalRows();
  // The banner's link scrolls away, and is spent once used: `d` prints a fresh one where the eye is.
  useQuitKeys(onQuit, dashboardLoginUrl && (() => print([[{ text: maskText(`  dashboard ${dashboardLoginUrl()}  (one-time; d for another)`) }]])));

  // The clock never runs backwards: the later of the two readings is the current one.
  const now = Math.max(ticked, snapshot.now);
  const live: LiveRegionProps = {
    inFlight: inFlightFits(rows) ? visibleInFlight(snapshot.model, inFlightRows(rows)) : { events: [], hidden: 0, atCapacity: false },
    now,
    colour,
    status: {
      url,
      clock: new Date(now).toISOString(),
      timeScale: feed.clock.timeScale,
      inFlight: snapshot.model.inFlight.size,
      stopping,
    },
  };
  const region = <LiveRegion {...live} />;
  useReflowCleanup(region);
  return region;
}
