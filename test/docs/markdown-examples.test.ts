import { describe, expect, it } from "vitest";
import { anchorsOf, consoleSteps, headingAnchor, matchOutput, readBlocks, relativeLinksOf, rewriteCommand } from "./markdown-examples.js";

const DOC = [
  "# Page",
  "",
  "<!-- example: payouts -->",
  "```console",
  "$ paysim trigger payout.created",
  "po  pending",
  "$ paysim clock show",
  "```",
  "",
  "<!-- not-runnable: installs packages -->",
  "```sh",
  "npm install --save-dev paysim",
  "```",
  "",
  "```sh",
  "paysim events list",
  "```",
  "",
  "<!-- not-runnable: -->",
  "```sh",
  "paysim events list",
  "```",
  "",
  "<!-- example-file: fixtures checkout.json -->",
  "```json",
  '{ "steps": [] }',
  "```",
].join("\n");

describe("readBlocks", () => {
  it("reads each fenced block with the marker on the line before it", () => {
    const blocks = readBlocks("doc.md", DOC);
    expect(blocks.map((block) => [block.line, block.lang, block.marker, block.badMarker])).toEqual([
      [4, "console", { kind: "example", name: "payouts" }, undefined],
      [11, "sh", { kind: "not-runnable", reason: "installs packages" }, undefined],
      [15, "sh", undefined, undefined],
      [20, "sh", undefined, "not-runnable:"],
      [25, "json", { kind: "example-file", name: "fixtures", path: "checkout.json" }, undefined],
    ]);
    expect(blocks[4]!.body).toBe('{ "steps": [] }');
  });

  it("reads a console block as commands, each with the output shown after it", () => {
    expect(consoleSteps(readBlocks("doc.md", DOC)[0]!)).toEqual([
      { command: "paysim trigger payout.created", output: ["po  pending"] },
      { command: "paysim clock show", output: [] },
    ]);
  });
});

describe("matchOutput", () => {
  const ID = "po_hQjgrES2SUsUgbOgRc6IKfBF";
  const REAL = "po_0VrF7A0IVCrYOFWBMiVermv7";

  it("binds an id the document shows to this run's, so later commands can use it", () => {
    const ids = new Map<string, string>();
    expect(matchOutput([`po    ${ID}  pending`], `po  ${REAL}  pending\n`, ids)).toBeUndefined();
    expect(ids.get(ID)).toBe(REAL);
    expect(rewriteCommand(`paysim payouts transition ${ID} processing`, ids, undefined)).toBe(`paysim payouts transition ${REAL} processing`);
  });

  it.each([
    ["a different word", ["status  processing"], "status  succeeded"],
    ["a line more", ["status  processing"], "status  processing\namount  1000 EUR"],
    ["a line less", ["status  processing", "amount  1000 EUR"], "status  processing"],
    ["one space for a column gap", ["status  processing"], "status processing"],
    ["another id where the same one was shown twice", [`${ID} ${ID}`], `${REAL} po_111111111111111111111111`],
  ])("refuses %s", (_name, shown, actual) => {
    expect(matchOutput(shown, actual, new Map())).toMatch(/^expected output\n/);
  });

  it("refuses an id already bound to another object", () => {
    const ids = new Map([[ID, REAL]]);
    expect(matchOutput([ID], "po_111111111111111111111111", ids)).toBeDefined();
  });

  it("lets timestamps, references, keys and a … line stand for what this run printed", () => {
    const shown = ["updated_at  2026-11-21T11:42:40.606Z", "reference   POUT-3LKADFLD5O", "key         sk_test_abc", "…", "end"];
    const actual = "updated_at  2030-01-02T03:04:05.678Z\nreference   POUT-ZZZZZZZZZ1\nkey         sk_test_Q9x\nline 1\nline 2\nend\n";
    expect(matchOutput(shown, actual, new Map())).toBeUndefined();
  });
});

describe("rewriteCommand", () => {
  it("refuses an id that no earlier output showed", () => {
    expect(() => rewriteCommand("paysim events show evt_GLjmjNUCXtKlG4SKBTtRlK59", new Map(), undefined)).toThrow(
      /uses evt_GLjmjNUCXtKlG4SKBTtRlK59, which no earlier output of its walk-through shows/,
    );
  });

  it("puts the port paysim listens on in place of the documented 7420", () => {
    expect(rewriteCommand("curl http://127.0.0.1:7420/health http://localhost:7420/health", new Map(), 51234)).toBe(
      "curl http://127.0.0.1:51234/health http://localhost:51234/health",
    );
  });
});

describe("links", () => {
  it.each([
    ["`paysim clock show | advance <duration>`", "paysim-clock-show--advance-duration"],
    ["What paysim guarantees", "what-paysim-guarantees"],
    ["Decisions where the service description is silent", "decisions-where-the-service-description-is-silent"],
    ["`startPaysim()`", "startpaysim"],
  ])("the heading %s has the anchor %s", (heading, anchor) => {
    expect(headingAnchor(heading)).toBe(anchor);
  });

  it("finds headings and relative links outside code, and leaves web addresses out", () => {
    const text = ["# Top", "```sh", "# not a heading", "[x](in-code.md)", "```", "See [a](a.md#top), [b](#top), [c](https://example.com), `[d](e.md)`."].join(
      "\n",
    );
    expect([...anchorsOf(text)]).toEqual(["top"]);
    expect(relativeLinksOf(text)).toEqual(["a.md#top", "#top"]);
  });
});
