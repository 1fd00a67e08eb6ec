import { Box } from "ink";
import type { EventView } from "../model.js";
import { eventRows } from "../rows.js";
import { RowText } from "./RowText.js";

/**
 * An in-flight event (time, type, object id, id) and one line per endpoint: where its delivery
 * stands at `now`. Its date shows when it is not of the clock's current day.
 */
export function EventBlock({ event, now }: { event: EventView; now: number }) {
  const dated = event.createdAt !== null && event.createdAt.slice(0, 10) !== new Date(now).toISOString().slice(0, 10);
  return (
    <Box flexDirection="column">
      {eventRows(event, now, dated).map((row, i) => (
        <RowText key={i} row={row} />
      ))}
    </Box>
  );
}
