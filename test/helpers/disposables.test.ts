import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { defer, suiteScope, usePaysim, usePaysimApp, useReceiver, useTempDir, useTmux } from "./disposables.js";
import type { TmuxTerminal } from "./tmux.js";

// The order of the tests in each describe matters: a later test checks what the cleanups of an earlier one did.

describe("the running test's scope (the default)", () => {
  const released: string[] = [];
  let folder = "";

  it("keeps what it registered until the test ends", async () => {
    defer(() => released.push("first"));
    defer(async () => {
      await Promise.resolve();
      released.push("second");
    });
    folder = useTempDir();
    expect(existsSync(folder)).toBe(true);
    expect(released).toEqual([]);
  });

  it("released it after that test, newest first", () => {
    expect(released).toEqual(["second", "first"]);
    expect(existsSync(folder)).toBe(false);
  });

  it.fails("releases what a failing test registered too", () => {
    defer(() => released.push("after a failure"));
    throw new Error("this test fails on purpose");
  });

  it("released the failed test's cleanups", () => {
    expect(released.at(-1)).toBe("after a failure");
  });
});

describe("a running paysim and receiver", () => {
  let url = "";
  let receiverUrl = "";

  it("serve while the test runs", async () => {
    const receiver = await useReceiver(204);
    const paysim = await usePaysim();
    url = paysim.url;
    receiverUrl = receiver.url;
    expect((await fetch(receiverUrl, { method: "POST" })).status).toBe(204);
    expect((await paysim.api("GET", "/v1/payment_intents")).status).toBe(200);
  });

  it("are stopped once it has finished", async () => {
    await expect(fetch(`${url}/v1/payment_intents`)).rejects.toThrow();
    await expect(fetch(receiverUrl, { method: "POST" })).rejects.toThrow();
  });
});

describe("usePaysimApp", () => {
  let paysim: Awaited<ReturnType<typeof usePaysimApp>>;

  it("calls the instance's app with the default key unless told otherwise", async () => {
    paysim = await usePaysimApp();
    const served: string[] = [];
    paysim.bus.on("request.logged", (entry) => served.push(`${entry.method} ${entry.path} ${entry.status}`));
    const listed = await paysim.api("GET", "/v1/payment_intents");
    expect(listed.status).toBe(200);
    expect(listed.body.object).toBe("list");
    expect((await paysim.api("GET", "/v1/payment_intents", { key: null })).status).toBe(401);
    expect(served).toEqual(["GET /v1/payment_intents 200", "GET /v1/payment_intents 401"]);
  });

  it("is stopped once that test has finished", async () => {
    expect(paysim.store.db.open).toBe(false);
  });
});

describe("a suite's scope", () => {
  const released: string[] = [];

  describe("while its tests run", () => {
    const thisSuite = suiteScope();
    beforeAll(() => {
      defer(() => released.push("made first"), thisSuite);
      defer(() => released.push("made second"), thisSuite);
    });

    it("keeps what its beforeAll registered", () => expect(released).toEqual([]));
    it("still keeps it at its last test", () => expect(released).toEqual([]));
  });

  it("released it after that suite's last test, newest first", () => {
    expect(released).toEqual(["made second", "made first"]);
  });
});

describe("useTmux", () => {
  let terminal: TmuxTerminal;

  it("runs the program in a terminal while the test runs", async () => {
    terminal = await useTmux(["sh", "-c", "echo tmux-is-here; sleep 600"], { columns: 40, rows: 5 });
    expect(await terminal.waitForScreen((screen) => screen.includes("tmux-is-here"), "the echoed line")).toContain("tmux-is-here");
  });

  it("killed the session and its tmux server once that test has finished", async () => {
    await expect(terminal.screen()).rejects.toThrow();
  });
});
