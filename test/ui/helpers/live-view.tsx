import "./as-a-terminal.js";
import { render } from "ink";
import { render as renderInTestRenderer } from "ink-testing-library";
import { vi } from "vitest";
import type { PaysimInstance } from "../../../src/paysim.js";
import type { Timers } from "../../../src/runtime/timers.js";
import { bannerFacts } from "../../../src/cli/banner-facts.js";
import { bannerLines } from "../../../src/ui/banner.js";
import { startLiveFeed } from "../../../src/ui/live-feed.js";
import { LiveView } from "../../../src/ui/LiveView.js";
import { LIVE_VIEW_INK_OPTIONS } from "../../../src/ui/render-live-view.js";
import { fakeTerminal } from "./fake-terminal.js";
import { replay } from "./screen.js";

export interface RenderedView {
  /** The whole terminal so far (the printed lines scrolled up, then the live region), without styles. */
  frame(): string;
  /** Resolves once the frame matches; fails with the last frame if it never does. */
  waitForFrame(pattern: RegExp | string): Promise<string>;
  /** Writes to the terminal so far. */
  frameCount(): number;
  /** Everything written, styles included. */
  raw(): string;
  /** The terminal's output stream: set `columns` and emit "resize" to resize it. */
  stdout: NodeJS.WriteStream;
  /** Keys typed into the view. */
  stdin: { write(keys: string): void };
  quitRequests(): number;
  unmount(): void;
}

/**
 * The live view of a real instance, rendered by Ink as on a developer's terminal (100 × 40),
 * read back through a small terminal emulator (`replay`).
 *
 * @example
 * const view = renderView(paysim);
 * await view.waitForFrame(/delivered 200/);
 */
export function renderView(
  instance: PaysimInstance,
  options: { colour?: boolean; throttleMs?: number; columns?: number; rows?: number; timers?: Timers } = {},
): RenderedView {
  let quits = 0;
  const terminal = fakeTerminal(options.columns ?? 100, options.rows ?? 40);
  const feed = startLiveFeed(instance);
  const ink = render(
    <LiveView
      feed={feed}
      url={instance.url}
      banner={bannerLines(bannerFacts(instance, { db: ":memory:", host: "127.0.0.1" }))}
      colour={options.colour ?? false}
      onQuit={() => quits++}
      throttleMs={options.throttleMs ?? 20}
      timers={options.timers}
    />,
    { stdout: terminal.stdout, stdin: terminal.stdin, stderr: terminal.stderr, ...LIVE_VIEW_INK_OPTIONS },
  );
  const frame = () => replay(terminal.raw()).join("\n").replace(/\n+$/, "");
  return {
    frame,
    async waitForFrame(pattern) {
      // A guard against a hung test, not a timing assertion.
      await vi.waitFor(
        () => {
          const current = frame();
          if (!(typeof pattern === "string" ? current.includes(pattern) : pattern.test(current))) {
            throw new Error(`the frame does not show ${pattern}:\n${current}`);
          }
        },
        { timeout: 10_000, interval: 10 },
      );
      return frame();
    },
    frameCount: terminal.writes,
    raw: terminal.raw,
    stdout: terminal.stdout,
    stdin: { write: terminal.type },
    quitRequests: () => quits,
    unmount: () => {
      ink.unmount();
      feed.stop();
    },
  };
}

/**
 * The live view under ink-testing-library, whose every frame is all that Ink keeps (its static
 * output, then the live region): to see what Ink holds on to.
 */
export function renderForInspection(instance: PaysimInstance) {
  const feed = startLiveFeed(instance);
  const rendered = renderInTestRenderer(
    <LiveView
      feed={feed}
      url={instance.url}
      banner={bannerLines(bannerFacts(instance, { db: ":memory:", host: "127.0.0.1" }))}
      colour={false}
      onQuit={() => undefined}
      throttleMs={20}
    />,
  );
  return {
    /** Everything Ink wrote, write by write: a drawn frame, or lines written above it. */
    frames: rendered.frames,
    unmount: () => {
      rendered.unmount();
      feed.stop();
    },
  };
}

/** Replaces what changes from run to run (the version, ids, ports, durations, keys, the clock line) so that frames can be compared whole. */
export function normalise(frame: string): string {
  return frame
    .replace(/^paysim \d+\.\d+\.\d+\S* listening/m, "paysim VERSION listening")
    .replace(/\b(pi|po|evt|req|we|del)_[0-9A-Za-z]{24}\b/g, "$1_…")
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT")
    .replace(/\b(\d+)(\.\d)?ms\b/g, "Nms")
    .replace(/sk_test_[0-9A-Za-z]+/g, "sk_test_…")
    .replace(/whsec_[0-9A-Za-z]+/g, "whsec_…")
    .replace(/\/dashboard\/login\/[0-9A-Za-z]+/g, "/dashboard/login/…")
    .replace(/clock \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z/g, "clock …");
}
