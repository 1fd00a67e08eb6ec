import { describe, expect, it } from "vitest";
import type { Work } from "../../src/services/unit-of-work.js";
import { servicesOnAFile, T0, type Services } from "./support.js";

const REQUEST = "req_unit_of_work_test_0001";

/** The two ways to run a unit: `run` (durable when it returns) and `grouped` (durable when its promise resolves). */
const WAYS = [
  ["run", async (s: Services, fn: (work: Work) => unknown): Promise<unknown> => s.run(REQUEST, fn)],
  ["grouped", (s: Services, fn: (work: Work) => unknown): Promise<unknown> => s.run.grouped(REQUEST, fn)],
] as const;

describe("a unit of work", () => {
  it.each(WAYS)("%s: writes the change and its event in one transaction, and announces the event only once committed", async (_way, unit) => {
    const s = servicesOnAFile();
    let seenInside: unknown[] = ["not run"];
    const done = unit(s, (work) => {
      s.store.meta.set("change", "made");
      work.recordEvent(s.event({ amount: 2500 }));
      seenInside = [...s.announced];
    });
    await done;
    expect(seenInside).toEqual([]);
    expect(s.db.inTransaction).toBe(false);
    expect(s.store.meta.get("change")).toBe("made");
    expect(s.announced).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        type: "payment_intent.created",
        objectId: "pi_test",
        companyId: s.companyId,
        requestId: REQUEST,
        createdAt: new Date(T0).toISOString(),
        deliveries: [],
      },
    ]);
    const stored = s.store.events.byId(s.companyId, s.announced[0]!.id)!;
    expect(JSON.parse(stored.body)).toEqual({
      id: s.announced[0]!.id,
      object: "event",
      type: "payment_intent.created",
      created_at: new Date(T0).toISOString(),
      request_id: REQUEST,
      data: { amount: 2500 },
    });
  });

  it.each(WAYS)("%s: a change that throws writes nothing, announces nothing and runs no afterCommit callback", async (_way, unit) => {
    const s = servicesOnAFile();
    const ran: string[] = [];
    const refused = new Error("refused transition");
    const attempt = async () =>
      unit(s, (work) => {
        s.store.meta.set("change", "made");
        work.recordEvent(s.event());
        work.afterCommit(() => ran.push("after commit"));
        throw refused;
      });
    await expect(attempt()).rejects.toBe(refused);
    await s.store.whenOpenGroupDurable();
    expect(s.store.meta.get("change")).toBeUndefined();
    expect(s.count("events")).toBe(0);
    expect(s.announced).toEqual([]);
    expect(ran).toEqual([]);
  });

  it.each(WAYS)("%s: runs afterCommit callbacks once committed, after the unit's events are announced", async (_way, unit) => {
    const s = servicesOnAFile();
    const ran: { announced: number; inTransaction: boolean }[] = [];
    await unit(s, (work) => {
      work.afterCommit(() => ran.push({ announced: s.announced.length, inTransaction: s.db.inTransaction }));
      work.recordEvent(s.event());
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual([{ announced: 1, inTransaction: false }]);
  });

  it("masks card data in an event's stored body", () => {
    const s = servicesOnAFile();
    const stored = s.run(REQUEST, (work) => work.recordEvent(s.event({ description: "card 4242 4242 4242 4242", cvc: "123" })));
    const body = JSON.parse(s.store.events.byId(s.companyId, stored.id)!.body);
    expect(body.data).toEqual({ description: "card **** **** **** 4242" });
  });

  it("announces the deliveries the outbox made for each event, as it answered them", () => {
    const deliveries = [{ deliveryId: "del_1", endpointId: "we_1", url: "http://127.0.0.1:9/hooks" }];
    const seen: string[] = [];
    const s = servicesOnAFile((event) => (seen.push(event.id), deliveries));
    const stored = s.run(REQUEST, (work) => work.recordEvent(s.event()));
    expect(seen).toEqual([stored.id]);
    expect(s.announced.map((event) => event.deliveries)).toEqual([deliveries]);
  });
});

describe("a unit started inside another", () => {
  it.each([
    ["run inside run", (s: Services, fn: (work: Work) => void): void => s.run("req_inner", fn)],
    ["grouped inside run", (s: Services, fn: (work: Work) => void): void => void s.run.grouped("req_inner", fn)],
  ] as const)("%s: joins the outer one (its Work, its transaction, its announcement)", (_name, inner) => {
    const s = servicesOnAFile();
    let outerWork: Work | undefined;
    let innerWork: Work | undefined;
    s.run(REQUEST, (work) => {
      outerWork = work;
      inner(s, (joined) => {
        innerWork = joined;
        joined.recordEvent(s.event());
      });
      expect(s.announced).toEqual([]);
    });
    expect(innerWork).toBe(outerWork);
    expect(s.announced.map((event) => event.requestId)).toEqual([REQUEST]);
  });

  it("is rolled back with the outer one when the outer one throws after it", () => {
    const s = servicesOnAFile();
    expect(() =>
      s.run(REQUEST, () => {
        s.run("req_inner", (work) => {
          work.recordEvent(s.event());
          s.store.meta.set("inner", "written");
        });
        throw new Error("the outer change is refused");
      }),
    ).toThrow("the outer change is refused");
    expect(s.store.meta.get("inner")).toBeUndefined();
    expect(s.count("events")).toBe(0);
    expect(s.announced).toEqual([]);
  });
});

describe("grouped units", () => {
  it("share one group commit: each resolves once the group is durable, and none is announced before", async () => {
    const s = servicesOnAFile();
    const first = s.run.grouped("req_first", (work) => work.recordEvent(s.event()).id);
    const second = s.run.grouped("req_second", (work) => work.recordEvent(s.event()).id);
    // Both written into the open group, neither durable nor announced yet.
    expect(s.db.inTransaction).toBe(true);
    expect(s.count("events")).toBe(2);
    expect(s.announced).toEqual([]);
    const durable: boolean[] = [];
    const ids = await Promise.all([first, second].map((unit) => unit.then((id) => (durable.push(!s.db.inTransaction), id))));
    expect(durable).toEqual([true, true]);
    expect(s.announced.map((event) => event.id)).toEqual(ids);
  });

  it("throws a refused change at once, having written nothing, and keeps the other units of its group", async () => {
    const s = servicesOnAFile();
    const kept = s.run.grouped("req_kept", (work) => {
      s.store.meta.set("kept", "yes");
      return work.recordEvent(s.event()).id;
    });
    let threw: unknown;
    try {
      // Not a rejected promise: the call itself throws, before any await.
      void s.run.grouped("req_refused", (work) => {
        s.store.meta.set("refused", "yes");
        work.recordEvent(s.event());
        throw new Error("refused transition");
      });
    } catch (error) {
      threw = error;
    }
    expect(threw).toEqual(new Error("refused transition"));
    // Rolled back already, while the group is still open.
    expect(s.store.meta.get("refused")).toBeUndefined();
    expect(s.count("events")).toBe(1);
    const keptId = await kept;
    expect(s.store.meta.get("kept")).toBe("yes");
    expect(s.announced.map((event) => event.id)).toEqual([keptId]);
  });
});
