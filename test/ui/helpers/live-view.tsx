import "./as-a-terminal.js";
import { render } from "ink-testing-library";
import { stripVTControlCharacters } from "node:util";
import { vi } from "vitest";
import type { PaysimInstance } from "../../../src/paysim.js";
import { bannerFacts } from "../../../src/cli/banner-facts.js";
import { bannerLines } from "../../../src/ui/banner.js";
import { startLiveFeed } from "../../../src/ui/live-feed.js";
import { LiveView } from "../../../src/ui/LiveView.js";

export interface RenderedView {
  /** The whole screen so far (printed lines and the live region), without styles. */
  frame(): string;
  /** Resolves once the frame matches; fails with the last frame if it never does. */
  waitForFrame(pattern: RegExp | string): Promise<string>;
  /** Frames written so far. */
  frameCount(): number;
  stdout: ReturnType<typeof render>["stdout"];
  /** Keys typed into the view. */
  stdin: ReturnType<typeof render>["stdin"];
  quitRequests(): number;
  unmount(): void;
}

/**
 * The live view of a real instance, rendered by ink-testing-library at 100 columns.
 *
 * @example
 * const view = renderView(paysim);
 * await view.waitForFrame(/delivered 200/);
 */
export function renderView(instance: PaysimInstance, options: { colour?: boolean; throttleMs?: number } = {}): RenderedView {
  let quits = 0;
  const feed = startLiveFeed(instance);
  const rendered = render(
    <LiveView
      feed={feed}
      url={instance.url}
      banner={bannerLines(bannerFacts(instance, { db: ":memory:", host: "127.0.0.1" }))}
      colour={options.colour ?? false}
      onQuit={() => quits++}
      throttleMs={options.throttleMs ?? 20}
    />,
  );
  const frame = () =>
    stripVTControlCharacters(rendered.lastFrame() ?? "")
      .split("\n")
      .map((line) => line.trimEnd())
      .join("\n");
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
    frameCount: () => rendered.frames.length,
    stdout: rendered.stdout,
    stdin: rendered.stdin,
    quitRequests: () => quits,
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
