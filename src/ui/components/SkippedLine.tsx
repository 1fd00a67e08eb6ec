import { Text } from "ink";
import { Tone } from "./Tone.js";

/** Stands for finished lines a burst produced faster than a terminal can usefully show. */
export function SkippedLine({ events, requests }: { events: number; requests: number }) {
  return (
    <Text wrap="truncate-end">
      <Tone tone="warn">
        … {events} events and {requests} requests not shown (too many at once); `paysim events list` has the events
      </Tone>
    </Text>
  );
}
