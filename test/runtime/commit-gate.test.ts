import { describe, expect, it } from "vitest";
import { createCommitGate } from "../../src/runtime/commit-gate.js";
import { createStore } from "../../src/store/index.js";
import { useDatabase, useTempPath } from "../helpers/disposables.js";

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("the commit gate", () => {
  it.each([
    { name: "no group open: it is durable already", group: () => undefined, expected: true },
    { name: "its group commits", group: () => Promise.resolve(), expected: true },
    { name: "its group fails: the job never existed", group: () => Promise.reject(new Error("commit failed")), expected: false },
  ])("holds a job until its transaction is over ($name)", async ({ group, expected }) => {
    const gate = createCommitGate(group);
    gate.hold(7);
    expect(await gate.committed(7)).toBe(expected);
    // Forgotten once settled: nothing is kept per job.
    await turn();
    expect(gate.committed(7)).toBeUndefined();
  });

  it("has nothing to wait for on a job it never held", () => {
    expect(createCommitGate(() => undefined).committed(1)).toBeUndefined();
  });

  it("waits for the store's open group commit to be durable", async () => {
    const store = createStore(useDatabase(useTempPath()));
    const gate = createCommitGate(store.whenOpenGroupDurable);
    const seen: string[] = [];
    const { committed } = store.unit(() => gate.hold(1));
    void committed.then(() => seen.push("group durable"));
    const released = gate.committed(1)!.then((durable) => seen.push(`job released: ${durable}`));
    expect(seen).toEqual([]);
    await released;
    expect(seen).toEqual(["group durable", "job released: true"]);
  });
});
