import { Text } from "ink";
import { faultMark, requestDuration, requestStatus, statusTone, timeOfDay } from "../describe.js";
import type { RequestView } from "../model.js";
import { Tone } from "./Tone.js";

/** `12:00:01  POST /v1/payment_intents 201 12.3ms`, then the fault that hit it, if one did (SPEC §14). */
export function RequestLine({ request }: { request: RequestView }) {
  return (
    <Text wrap="truncate-end">
      <Tone tone="muted">{timeOfDay(request.at)}</Tone>
      {"  "}
      <Tone tone="strong">{request.method}</Tone> {request.path} <Tone tone={statusTone(request.status)}>{requestStatus(request.status)}</Tone>{" "}
      <Tone tone="muted">{requestDuration(request.durationMs)}</Tone>
      {request.fault ? (
        <>
          {" "}
          <Tone tone="bad">{faultMark(request.fault)}</Tone>
        </>
      ) : null}
    </Text>
  );
}
