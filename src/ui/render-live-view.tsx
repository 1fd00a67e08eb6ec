import { render } from "ink";
import { colourEnabled } from "./terminal.js";
import { maskText } from "../domain/masking.js";
import type { PaysimInstance } from "../paysim.js";
import { bannerFacts, bannerLines } from "./banner.js";
import { startLiveFeed, type LiveFeed } from "./live-feed.js";
import { LiveView } from "./LiveView.js";

export interface LiveViewOptions {
  /** The --db and --host of this start, for the banner. */
  db: string;
  host: string;
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
 * const view = renderLiveView(instance, { db: ".paysim/paysim.db", host: "127.0.0.1", feed });
 * await view.waitUntilExit(); // after `q` or Ctrl-C
 */
export function renderLiveView(instance: PaysimInstance, options: LiveViewOptions): LiveViewHandle {
  const stdout = options.stdout ?? process.stdout;
  const feed = options.feed ?? startLiveFeed(instance);
  // Taken once, outside React: a render may run more than once, a take must not.
  const earlier = feed.take().printed;
  const view = (stopping: boolean) => (
    <LiveView
      feed={feed}
      url={instance.url}
      banner={bannerLines(bannerFacts(instance, options))}
      earlier={earlier}
      colour={options.colour ?? colourEnabled(stdout)}
      onQuit={() => void quit()}
      stopping={stopping}
      throttleMs={options.throttleMs}
    />
  );

  const ink = render(view(false), {
    stdout,
    stdin: options.stdin ?? process.stdin,
    stderr: options.stderr ?? process.stderr,
    exitOnCtrlC: false,
    patchConsole: false,
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
