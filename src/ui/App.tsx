import { Box, Static } from "ink";
import { EventBlock } from "./components/EventBlock.js";
import { Header } from "./components/Header.js";
import { InFlight } from "./components/InFlight.js";
import { RequestLine } from "./components/RequestLine.js";
import { ResetLine } from "./components/ResetLine.js";
import { SkippedLine } from "./components/SkippedLine.js";
import { StatusLine, type StatusFacts } from "./components/StatusLine.js";
import { ColourContext } from "./components/Tone.js";
import type { EventView, Printed } from "./model.js";

/** A line printed once above the live region: the banner first, then finished requests and events. */
export type StaticLine = Printed | { kind: "banner"; lines: readonly string[] };

export interface AppProps {
  /** Lines not printed yet; a new `batch` number means new lines. */
  printed: readonly StaticLine[];
  batch: number;
  inFlight: { events: readonly EventView[]; hidden: number; atCapacity: boolean };
  /** Clock time (ms) the countdowns count to. */
  now: number;
  status: StatusFacts;
  colour: boolean;
}

function PrintedLine({ line, now }: { line: StaticLine; now: number }) {
  switch (line.kind) {
    case "banner":
      return <Header lines={line.lines} />;
    case "request":
      return <RequestLine request={line.request} />;
    case "event":
      return <EventBlock event={line.event} now={now} />;
    case "skipped":
      return <SkippedLine events={line.events} requests={line.requests} />;
    case "reset":
      return <ResetLine reset={line.reset} at={line.at} />;
  }
}

export type LiveRegionProps = Pick<AppProps, "inFlight" | "now" | "status" | "colour">;

/** What still changes, redrawn in place below the printed lines: in-flight events and the status line. */
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

/**
 * The live view. Finished lines go through <Static> (written once, then
 * scrolled by the terminal); a new batch remounts it, so it never holds more
 * than one batch. Below it the live region.
 */
export function App({ printed, batch, inFlight, now, status, colour }: AppProps) {
  return (
    <ColourContext.Provider value={colour}>
      <Static key={batch} items={printed as StaticLine[]}>
        {(line, i) => <PrintedLine key={`${batch}:${i}`} line={line} now={now} />}
      </Static>
      <LiveRegion inFlight={inFlight} now={now} status={status} colour={colour} />
    </ColourContext.Provider>
  );
}
