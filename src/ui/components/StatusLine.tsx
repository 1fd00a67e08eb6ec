import { Text } from "ink";
import { Tone } from "./Tone.js";

export interface StatusFacts {
  url: string;
  /** Clock time, ISO. */
  clock: string;
  timeScale: number;
  inFlight: number;
  stopping: boolean;
}

/** The bottom line: where paysim listens, the clock, what is in flight, how to quit. */
export function StatusLine({ status }: { status: StatusFacts }) {
  const clock = `${status.clock.slice(0, 10)} ${status.clock.slice(11, 19)}Z${status.timeScale === 1 ? "" : ` ×${status.timeScale}`}`;
  return (
    <Text wrap="truncate-end">
      <Tone tone="strong">paysim</Tone> {status.url}
      <Tone tone="muted">
        {" · "}clock {clock} · {status.inFlight} in flight ·{" "}
      </Tone>
      {status.stopping ? <Tone tone="warn">stopping…</Tone> : <Tone tone="muted">q to quit</Tone>}
    </Text>
  );
}
