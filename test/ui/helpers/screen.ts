/**
 * What a terminal shows after `written`: the scrollback and the screen, one string per row,
 * without styles. Knows the sequences Ink writes to redraw its live region (erase a line, cursor
 * up, down and to the first column, clear the terminal); others are left out. Rows are not
 * wrapped: the view cuts its lines to the terminal's width itself.
 *
 * @example
 * replay("a\nb\n\u001b[2K\u001b[1A\u001b[2K\u001b[Gc\n") // ["a", "c", ""]
 */
export function replay(written: string): string[] {
  const rows: string[] = [""];
  let row = 0;
  let col = 0;
  const put = (text: string) => {
    const line = [...(rows[row] ?? "")];
    const chars = [...text];
    while (line.length < col) line.push(" ");
    line.splice(col, chars.length, ...chars);
    rows[row] = line.join("");
    col += chars.length;
  };
  // eslint-disable-next-line no-control-regex
  const tokens = written.split(/(\u001b\[[0-9;?<>=]*[A-Za-z]|\n|\r)/);
  for (const token of tokens) {
    if (token === "") continue;
    if (token === "\n") {
      row++;
      col = 0;
      if (rows.length <= row) rows.push("");
      continue;
    }
    if (token === "\r") {
      col = 0;
      continue;
    }
    // eslint-disable-next-line no-control-regex
    const escape = /^\u001b\[([0-9;?<>=]*)([A-Za-z])$/.exec(token);
    if (!escape) {
      put(token);
      continue;
    }
    const [, params = "", command] = escape;
    const n = params === "" ? 1 : Number(params);
    if (command === "K" && params === "2") rows[row] = "";
    else if (command === "A") row = Math.max(0, row - n);
    else if (command === "B") row = Math.min(rows.length - 1, row + n);
    else if (command === "G") col = Math.max(0, (params === "" ? 1 : n) - 1);
    else if (command === "J" && (params === "2" || params === "3")) rows.splice(0, rows.length, "");
    else if (command === "H") {
      row = 0;
      col = 0;
    }
  }
  return rows.map((line) => line.trimEnd());
}
