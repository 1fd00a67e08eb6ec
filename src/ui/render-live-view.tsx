import { render } from "ink";
import { colourEnabled } from "./terminal.js";
import { maskText } from "../domain/masking.js";
import type { Bus } from "../bus.js";
import type { Clock } from "../runtime/clock.js";
import { bannerLines, type BannerFacts } from "./banner.js";
import { startLiveFeed, type LiveFeed } from "./live-feed.js";
import { LiveView } from "./LiveView.js";

/**
 * How Ink runs the view. Quitting closes the instance first, so Ink's own Ctrl-C exit is off.
 * Frames are already throttled by the view (`throttleMs`); Ink's own throttle (maxFps) would
 * draw the live region a frame late after finished lines are written above it, showing a
 * finished event both printed and still in flight, so it is off.
 */
export const LIVE_VIEW_INK_OPTIONS = { exitOnCtrlC: false, patchConsole: false, maxFps: 0 } as const;

/** Under the banner of the live view only: the plain log reads no keys. */
const DASHBOARD_KEY_HINT = "  press d for a fresh one-time dashboard link, q to quit";

/** What the view needs of a running paysim: its URL, its bus and clock, and how to stop it. */
export interface LiveInstance {
  url: string;
  bus: Bus;
  clock: Clock;
  /** Stops the instance (database closed, pending deliveries kept). */
  close(): Promise<void>;
  /** A fresh one-time dashboard link (`d` prints one); absent, `d` does nothing. */
  dashboardLoginUrl?: () => string;
}

export interface LiveViewOptions {
  /** What the banner at the top says (where it listens, keys, secrets). */
  banner: BannerFacts;
  /**
   * What the view shows, heard from the bus since it was started. Default: a
   * feed started now, which misses what the bus announced before this call.
   */
  feed?: LiveFeed;
  /** Default: the process's streams. */
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  stderr?: NodeJS.WriteStream;
  /** Default: on for a TTY unless NO_COLOR is set. */
  colour?: boolean;
  throttleMs?: number;
}

export interface LiveViewHandle {
  /** Settles once the view has quit and the instance is closed. */
  waitUntilExit(): Promise<void>;
  /** Quits as `q` does: closes the instance (database closed, pending deliveries kept), then removes the view. */
  quit(): Promise<void>;
}

/**
 * The one door to the live terminal view: nothing else imports Ink.
 *
 * @example
 * const feed = startLiveFeed(instance);
 * const view = renderLiveView(instance, { banner: bannerFacts(instance, { db, host }), feed });
 * await view.waitUntilExit(); // after `q` or Ctrl-C
 */
export function renderLiveView(instance: LiveInstance, options: LiveViewOptions): LiveViewHandle {
  const stdout = options.stdout ?? process.stdout;
  const feed = options.feed ?? startLiveFeed(instance);
  // Taken once, outside React: a render may run more than once, a take must not.
  const earlier = feed.take().printed;
  const view = (stopping: boolean) => (
    <LiveView
      feed={feed}
      url={instance.url}
      banner={[...bannerLines(options.banner), ...(instance.dashboardLoginUrl ? [DASHBOARD_KEY_HINT] : [])]}
      earlier={earlier}
      colour={options.colour ?? colourEnabled(stdout)}
      onQuit={() => void quit()}
      dashboardLoginUrl={instance.dashboardLoginUrl}
      stopping={stopping}
      throttleMs={options.throttleMs}
    />
  );

  const ink = render(view(false), {
    stdout,
    stdin: options.stdin ?? process.stdin,
    stderr: options.stderr ?? process.stderr,
    ...LIVE_VIEW_INK_OPTIONS,
  });

  let quitting: Promise<void> | undefined;
  function quit(): Promise<void> {
    quitting ??= (async () => {
      ink.rerender(view(true));
      try {
        await instance.close();
      } finally {
        feed.stop();
        ink.unmount();
        stdout.write(`${maskText("paysim stopped; pending deliveries are kept for the next start.")}\n`);
      }
    })();
    return quitting;
  }
  // If Ink ends on its own (a render error), the instance is still closed.
  const exited = ink.waitUntilExit().finally(() => quit());
  return { waitUntilExit: () => exited.then(() => quit()), quit };
}
