import { Text } from "ink";
import { createContext, useContext, type ReactNode } from "react";
import { TONE_STYLES, type ToneName } from "../rows.js";

/** Whether styles may be used (a TTY and no NO_COLOR): provided once by App. */
export const ColourContext = createContext(true);

export type { ToneName };

/** Text in a tone; plain when colour is off. */
export function Tone({ tone, children }: { tone: ToneName; children: ReactNode }) {
  const colour = useContext(ColourContext);
  return <Text {...(colour ? TONE_STYLES[tone] : {})}>{children}</Text>;
}
