import { Text } from "ink";
import type { Row } from "../rows.js";
import { Tone } from "./Tone.js";

/** A row of the live region, cut at the terminal's width. */
export function RowText({ row }: { row: Row }) {
  return (
    <Text wrap="truncate-end">
      {row.map((piece, i) =>
        piece.tone ? (
          <Tone key={i} tone={piece.tone}>
            {piece.text}
          </Tone>
        ) : (
          piece.text
        ),
      )}
    </Text>
  );
}
