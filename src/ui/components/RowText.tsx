import { Text } from "ink";
import { shownText, type Row } from "../rows.js";
import { Tone } from "./Tone.js";

/** A row of the live region, cut at the terminal's width, its pieces escaped as `rowText` escapes them. */
export function RowText({ row }: { row: Row }) {
  return (
    <Text wrap="truncate-end">
      {row.map((piece, i) =>
        piece.tone ? (
          <Tone key={i} tone={piece.tone}>
            {shownText(piece)}
          </Tone>
        ) : (
          shownText(piece)
        ),
      )}
    </Text>
  );
}
