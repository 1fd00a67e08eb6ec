import { Box } from "ink";
import { InFlight } from "./components/InFlight.js";
import { StatusLine, type StatusFacts } from "./components/StatusLine.js";
import { ColourContext } from "./components/Tone.js";
import type { EventView } from "./model.js";

export interface LiveRegionProps {
  inFlight: { events: readonly EventView[]; hidden: number; atCapacity: boolean };
  /** Clock time (ms) the countdowns count to. */
  now: number;
  status: StatusFacts;
  colour: boolean;
}

/**
 * What still changes, redrawn in place below the printed lines: in-flight events and the status
 * line. The finished lines are not Ink's: the view writes them above this region as text.
 */
export function LiveRegion({ inFlight, now, status, colour }: LiveRegionProps) {
  return (
    <ColourContext.Provider value={colour}>
      <Box flexDirection="column">
        <InFlight events={inFlight.events} hidden={inFlight.hidden} atCapacity={inFlight.atCapacity} now={now} />
        <StatusLine status={status} />
      </Box>
    </ColourContext.Provider>
  );
}
