import { Text } from "ink";
import type { SandboxReset } from "../../bus.js";
import { resetText } from "../describe.js";
import { Tone } from "./Tone.js";

/** `sandbox reset (every company): 3 payment intents, 1 payout, 5 events deleted` */
export function ResetLine({ reset }: { reset: SandboxReset }) {
  return (
    <Text wrap="truncate-end">
      <Tone tone="warn">{resetText(reset)}</Tone>
    </Text>
  );
}
