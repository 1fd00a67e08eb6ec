import { Text } from "ink";
import type { SandboxReset } from "../../bus.js";
import { resetText, timeOfDay } from "../describe.js";
import { Tone } from "./Tone.js";

/** `12:00:01  sandbox reset (every company): 3 payment intents, 1 payout, 5 events deleted` */
export function ResetLine({ reset, at }: { reset: SandboxReset; at: string }) {
  return (
    <Text wrap="truncate-end">
      <Tone tone="muted">{timeOfDay(at)}</Tone>
      {"  "}
      <Tone tone="warn">{resetText(reset)}</Tone>
    </Text>
  );
}
