/**
 * A resource's JSON text with `"request_id"` as its last member (docs/api.md).
 * Spreading the resource into a new object to add the id cost as much as
 * stringifying it; a request id (`req_` and base62) needs no escaping.
 *
 * @example
 * withRequestId({ id: "pi_1" }, "req_2") // '{"id":"pi_1","request_id":"req_2"}'
 */
export function withRequestId(resource: object, requestId: string): string {
  const text = JSON.stringify(resource);
  const member = requestIdMember(requestId);
  return text === "{}" ? `{${member}}` : `${text.slice(0, -1)},${member}}`;
}

/** The `"request_id":"…"` member of an answer's JSON text. */
export function requestIdMember(requestId: string): string {
  return `"request_id":${JSON.stringify(requestId)}`;
}
