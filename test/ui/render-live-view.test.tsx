import "./helpers/as-a-terminal.js";
import { describe, expect, it, vi } from "vitest";
import { bannerFacts } from "../../src/cli/banner-facts.js";
import { renderLiveView } from "../../src/ui/render-live-view.js";
import { defer, usePaysim, useReceiver, useTempDir } from "../helpers/disposables.js";
import { createIntent } from "../helpers/paysim.js";
import type { Receiver } from "../helpers/receiver.js";
import { fakeTerminal } from "./helpers/fake-terminal.js";

async function waitForOutput(terminal: ReturnType<typeof fakeTerminal>, text: string): Promise<void> {
  // A guard against a hung test, not a timing assertion.
  await vi.waitFor(
    () => {
      if (!terminal.output().includes(text)) throw new Error(`not shown yet: ${text}\n${terminal.output()}`);
    },
    { timeout: 10_000, interval: 10 },
  );
}

describe("renderLiveView", () => {
  it.each([
    ["q", "q"],
    ["Ctrl-C", "\u0003"],
  ])("quits on %s: the instance is closed, its pending deliveries kept for the next start", async (_name, key) => {
    const receiver: Receiver = await useReceiver(500);
    const dir = useTempDir();
    const db = `${dir}/paysim.db`;
    const secretKey = "sk_test_live_view_quit_0001";
    const paysim = await usePaysim({ db, forwardTo: receiver.url, secretKey });
    const terminal = fakeTerminal();

    const view = renderLiveView(paysim, {
      banner: bannerFacts(paysim, { db, host: "127.0.0.1" }),
      stdout: terminal.stdout,
      stdin: terminal.stdin,
      stderr: terminal.stderr,
      colour: false,
    });
    await waitForOutput(terminal, `listening on ${paysim.url}`);
    const intent = await createIntent(paysim);
    await waitForOutput(terminal, "500, retry 1/6 in");

    terminal.type(key);
    await view.waitUntilExit();
    expect(terminal.output()).toContain("paysim stopped; pending deliveries are kept for the next start.");
    await expect(fetch(`${paysim.url}/health`)).rejects.toThrow();

    // Started as before (the same --forward-to): an endpoint a start no longer names would be removed.
    const again = await usePaysim({ db, forwardTo: receiver.url, secretKey });
    const events = await again.api("GET", "/v1/events?type=payment_intent.created");
    const event = events.body.data.find((e: { data: { id: string } }) => e.data.id === intent.id);
    const shown = await again.api("GET", `/v1/events/${event.id}`);
    expect(shown.body.deliveries).toMatchObject([{ status: "pending", attempts: [{ status_code: 500 }] }]);
  });

  it("shows the banner with the key and each endpoint's signing secret", async () => {
    const paysim = await usePaysim({ forwardTo: "http://127.0.0.1:3000/hooks", webhookSecret: "whsec_banner_test_0001" });
    const terminal = fakeTerminal();
    const view = renderLiveView(paysim, {
      banner: bannerFacts(paysim, { db: paysim.dbPath, host: "127.0.0.1" }),
      stdout: terminal.stdout,
      stdin: terminal.stdin,
      stderr: terminal.stderr,
      colour: false,
    });
    defer(() => view.quit());
    await waitForOutput(terminal, "q to quit");
    expect(terminal.output()).toContain(`  key       ${paysim.secretKey}\n`);
    expect(terminal.output()).toContain("  webhook   http://127.0.0.1:3000/hooks  signing secret whsec_banner_test_0001\n");
  });
});
