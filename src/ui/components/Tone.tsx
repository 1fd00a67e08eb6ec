import { Text } from "ink";
import { createContext, useContext, type ReactNode } from "react";

/** Whether styles may be used (a TTY and no NO_COLOR): provided once by App. */
export const ColourContext = createContext(true);

export type ToneName = "good" | "bad" | "warn" | "info" | "muted" | "strong";

const STYLES: Record<ToneName, { color?: string; dimColor?: boolean; bold?: boolean }> = {
  good: { color: "green" },
  bad: { color: "red" },
  warn: { color: "yellow" },
  info: { color: "cyan" },
  muted: { dimColor: true },
  strong: { bold: true },
};

/** Text in a tone; plain when colour is off. */
export function Tone({ tone, children }: { tone: ToneName; children: ReactNode }) {
  const colour = useContext(ColourContext);
  return <Text {...(colour ? STYLES[tone] : {})}>{children}</Text>;
}
