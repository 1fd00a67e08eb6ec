import { Box, Text } from "ink";
import { deliveryStateText, timeOfDay } from "../describe.js";
import type { DeliveryState } from "../delivery-state.js";
import type { EventView } from "../model.js";
import { Tone, type ToneName } from "./Tone.js";

const MARKS: Record<DeliveryState["kind"], { mark: string; tone: ToneName }> = {
  sending: { mark: "…", tone: "info" },
  delivered: { mark: "✓", tone: "good" },
  failing: { mark: "↻", tone: "warn" },
  gave_up: { mark: "✗", tone: "bad" },
  stopped: { mark: "✗", tone: "muted" },
};

const INDENT = " ".repeat(10);

/** An event (time, type, object id, id) and one line per endpoint: where its delivery stands at `now`. */
export function EventBlock({ event, now }: { event: EventView; now: number }) {
  const states = event.deliveries.map((d) => deliveryStateText(d.state, now));
  const width = Math.max(0, ...states.map((s) => s.length));
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Tone tone="muted">{event.createdAt === null ? "--:--:--" : timeOfDay(event.createdAt)}</Tone>
        {"  "}
        <Tone tone="info">{event.type.padEnd(25)}</Tone>
        {"  "}
        {event.objectId ?? "-"}
        {"  "}
        <Tone tone="muted">{event.id}</Tone>
      </Text>
      {event.deliveries.map((delivery, i) => {
        const { mark, tone } = MARKS[delivery.state.kind];
        return (
          <Text key={delivery.deliveryId} wrap="truncate-end">
            {INDENT}
            <Tone tone={tone}>
              {mark} {states[i]!.padEnd(width)}
            </Tone>
            {"  → "}
            {delivery.url}
          </Text>
        );
      })}
    </Box>
  );
}
