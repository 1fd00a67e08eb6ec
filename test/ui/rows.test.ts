import chalk from "chalk";
import { describe, expect, it } from "vitest";
import { lineTime, requestRow, rowText, type Row } from "../../src/ui/rows.js";
import { defer } from "../helpers/disposables.js";

const request = { requestId: "req_1", method: "GET", path: "/v1/events", status: 200, durationMs: 1.25, at: "2026-05-01T19:24:00.000Z" };

describe("rowText", () => {
  it.each([
    ["whole when it fits", requestRow(request), 80, "19:24:00  GET /v1/events 200 1.3ms"],
    ["cut with an ellipsis", requestRow(request), 16, "19:24:00  GET /…"],
    ["cut by display columns", [{ text: "GET /v1/日本語の支払い" }], 14, "GET /v1/日本…"],
    ["with its controls escaped", requestRow({ ...request, path: "/v1/\u001b]0;x\u0007\u202e" }), 80, "19:24:00  GET /v1/\\u001b]0;x\\u0007\\u202e 200 1.3ms"],
  ] as const)("%s", (_name, row, columns, text) => {
    expect(rowText(row as Row, { columns, colour: false })).toBe(text);
  });

  it("paints each piece in its tone, what survives of it after a cut too", () => {
    const level = chalk.level;
    chalk.level = 1;
    defer(() => (chalk.level = level));
    expect(rowText([{ text: "ok", tone: "good" }, { text: " plain " }, { text: "failed", tone: "bad" }], { columns: 12, colour: true })).toBe(
      `${chalk.green("ok")} plain ${chalk.red("fa…")}`,
    );
  });
});

describe("a row's pieces", () => {
  it("are escaped before they are painted", () => {
    const level = chalk.level;
    chalk.level = 1;
    defer(() => (chalk.level = level));
    expect(rowText([{ text: "\u001b[2J", tone: "bad" }, { text: " \u009b" }], { columns: 40, colour: true })).toBe(`${chalk.red("\\u001b[2J")} \\u009b`);
  });
});

describe("lineTime", () => {
  it("is the time of day, with the date when asked", () => {
    expect(lineTime("2026-05-01T19:24:00.000Z", false)).toBe("19:24:00");
    expect(lineTime("2026-05-01T19:24:00.000Z", true)).toBe("2026-05-01 19:24:00");
  });
});
