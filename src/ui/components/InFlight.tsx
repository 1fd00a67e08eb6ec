import { Box, Text } from "ink";
import type { EventView } from "../model.js";
import { EventBlock } from "./EventBlock.js";
import { Tone } from "./Tone.js";

/** The events still waiting on a delivery, redrawn as their countdowns move. */
export function InFlight({ events, hidden, atCapacity, now }: { events: readonly EventView[]; hidden: number; atCapacity: boolean; now: number }) {
  if (events.length === 0 && hidden === 0) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text wrap="truncate-end">
        <Tone tone="muted">in flight</Tone>
      </Text>
      {hidden > 0 ? (
        <Text wrap="truncate-end">
          <Tone tone="muted">
            … {hidden} older in flight not shown{atCapacity ? " (and older ones beyond the newest 100)" : ""}
          </Tone>
        </Text>
      ) : null}
      {events.map((event) => (
        <EventBlock key={event.id} event={event} now={now} />
      ))}
    </Box>
  );
}
