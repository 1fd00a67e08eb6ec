import { describe, expect, it } from "vitest";
import { withRequestId } from "../../src/shared/json-text.js";

describe("withRequestId", () => {
  it.each([
    [{ id: "pi_1", amount: 1000 }, '{"id":"pi_1","amount":1000,"request_id":"req_A"}'],
    [{}, '{"request_id":"req_A"}'],
    [
      { nested: { a: [1, { b: null }] }, text: 'quote " and \\ and }' },
      '{"nested":{"a":[1,{"b":null}]},"text":"quote \\" and \\\\ and }","request_id":"req_A"}',
    ],
  ])("adds request_id as the last member of %j", (resource, expected) => {
    const text = withRequestId(resource, "req_A");
    expect(text).toBe(expected);
    expect(JSON.parse(text)).toEqual({ ...resource, request_id: "req_A" });
  });

  it("leaves the resource itself unchanged", () => {
    const resource = { id: "pi_1" };
    withRequestId(resource, "req_A");
    expect(resource).toEqual({ id: "pi_1" });
  });
});
