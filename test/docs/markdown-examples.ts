/**
 * Reads the examples out of paysim's markdown documentation, so that a test can
 * run them as a reader would (test/docs/examples.test.ts).
 *
 * A fenced block is marked by an HTML comment on the last non-blank line before it:
 *   <!-- example: NAME -->            a runnable walk-through; the blocks of one file with
 *                                     one NAME run in order, in one folder, against one paysim
 *   <!-- example-file: NAME PATH -->  this block is the file PATH of walk-through NAME,
 *                                     written into its folder before anything runs
 *   <!-- example-code: PATH -->       this code block is kept, as written, in the test file PATH
 *   <!-- not-runnable: REASON -->     not runnable as it stands, and why
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";

export type Marker =
  | { kind: "example"; name: string }
  | { kind: "example-file"; name: string; path: string }
  | { kind: "example-code"; path: string }
  | { kind: "not-runnable"; reason: string };

export interface Block {
  /** The markdown file, as given. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word: `sh`, `console`, `ts`, … */
  lang: string;
  body: string;
  marker: Marker | undefined;
  /** A comment that looked like a marker but could not be read. */
  badMarker?: string;
}

/** Languages whose blocks are commands to type. */
export const SHELL_LANGS = new Set(["sh", "bash", "shell", "zsh", "console"]);
/** Languages whose blocks are code to paste into a program. */
export const CODE_LANGS = new Set(["ts", "typescript", "js", "javascript", "tsx", "mjs", "python", "py", "go", "java"]);

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const COMMENT = /^\s*<!--\s*(.*?)\s*-->\s*$/;

function readMarker(comment: string): Marker | "bad" | undefined {
  const match = /^(example|example-file|example-code|not-runnable):\s*(.*)$/.exec(comment);
  if (!match) return undefined;
  const [, kind, rest] = match as unknown as [string, Marker["kind"], string];
  const words = rest.split(/\s+/).filter(Boolean);
  if (kind === "example" && words.length === 1) return { kind, name: words[0]! };
  if (kind === "example-file" && words.length === 2) return { kind, name: words[0]!, path: words[1]! };
  if (kind === "example-code" && words.length === 1) return { kind, path: words[0]! };
  if (kind === "not-runnable" && rest.trim().length > 0) return { kind, reason: rest.trim() };
  return "bad";
}

/** Every fenced block of a markdown file, with the marker before it. */
export function readBlocks(file: string, text = readFileSync(file, "utf8")): Block[] {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim().startsWith(fence[0]!.repeat(fence.length)) && line.trim().replace(/[`~]/g, "") === "") break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === "") k--;
    const comment = k >= 0 ? COMMENT.exec(lines[k]!)?.[1] : undefined;
    const marker = comment === undefined ? undefined : readMarker(comment);
    blocks.push({
      file,
      line: i + 1,
      lang: lang.toLowerCase(),
      body: body.join("\n"),
      marker: marker === "bad" ? undefined : marker,
      ...(marker === "bad" ? { badMarker: comment } : {}),
    });
    i = j;
  }
  return blocks;
}

/** One command typed at a `$` prompt, and the output the block shows after it (maybe none). */
export interface ConsoleStep {
  command: string;
  output: string[];
}

/** The steps of a `console` block: `$ command` lines, each followed by its output lines. */
export function consoleSteps(block: Pick<Block, "body">): ConsoleStep[] {
  const steps: ConsoleStep[] = [];
  for (const line of block.body.split("\n")) {
    if (line.startsWith("$ ")) steps.push({ command: line.slice(2), output: [] });
    else if (steps.length > 0) steps[steps.length - 1]!.output.push(line);
    else if (line.trim() !== "") throw new Error(`output before any "$ " command: ${line}`);
  }
  for (const step of steps) while (step.output.length > 0 && step.output[step.output.length - 1] === "") step.output.pop();
  return steps;
}

/** An object id the service hands out: a prefix and 24 base62 characters. */
export const ID_PATTERN = /\b(?:pi|po|evt|req|we|del|flt|ins)_[A-Za-z0-9]{24}\b/g;

/** Text that differs from run to run, and what stands for it when output is compared. */
const VARYING: ReadonlyArray<[RegExp, string]> = [
  [/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/, String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`],
  [/^(?:PAY|POUT)-[A-Z0-9]{10}\b/, String.raw`(?:PAY|POUT)-[A-Z0-9]{10}`],
  [/^sk_test_[!-~]+/, String.raw`sk_test_[!-~]+`],
  [/^whsec_[!-~]+/, String.raw`whsec_[!-~]+`],
  // Columns are padded to their widest cell.
  [/^ {2,}/, " {2,}"],
  [/^…/, ".*"],
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Matches a run's output against the output a document shows. Ids the document
 * shows are bound, on first sight, to the ids of this run; `ids` carries those
 * bindings from step to step, so that a later command's ids can be rewritten.
 * Returns undefined when the output matches, else why not.
 */
export function matchOutput(shown: readonly string[], actual: string, ids: Map<string, string>): string | undefined {
  let pattern = "";
  const groups: string[] = [];
  shown.forEach((line, index) => {
    const last = index === shown.length - 1;
    if (line === "…") {
      pattern += last ? String.raw`[\s\S]*` : String.raw`(?:[^\n]*\n)*?`;
      return;
    }
    let rest = line;
    while (rest.length > 0) {
      const id = /^(?:pi|po|evt|req|we|del|flt|ins)_[A-Za-z0-9]{24}\b/.exec(rest)?.[0];
      if (id !== undefined) {
        const bound = ids.get(id);
        const earlier = groups.indexOf(id);
        if (bound !== undefined) pattern += escape(bound);
        else if (earlier >= 0) pattern += `\\k<g${earlier}>`;
        else {
          pattern += `(?<g${groups.length}>${id.split("_")[0]}_[A-Za-z0-9]{24})`;
          groups.push(id);
        }
        rest = rest.slice(id.length);
        continue;
      }
      const varying = VARYING.find(([token]) => token.test(rest));
      if (varying) {
        const [token, stands] = varying;
        pattern += stands;
        rest = rest.slice(token.exec(rest)![0].length);
        continue;
      }
      pattern += escape(rest[0]!);
      rest = rest.slice(1);
    }
    if (!last) pattern += "\\n";
  });
  const match = new RegExp(`^${pattern}$`).exec(actual.replace(/\n+$/, ""));
  if (!match) return `expected output\n${shown.join("\n")}\n--- but it printed ---\n${actual}`;
  groups.forEach((id, index) => ids.set(id, match.groups![`g${index}`]!));
  return undefined;
}

/**
 * A command as this run must type it: ids the document showed earlier become
 * this run's, and the documented port 7420 becomes the one paysim listens on.
 */
export function rewriteCommand(command: string, ids: ReadonlyMap<string, string>, port: number | undefined): string {
  const unknown: string[] = [];
  const rewritten = command.replace(ID_PATTERN, (id) => {
    const bound = ids.get(id);
    if (bound === undefined) unknown.push(id);
    return bound ?? id;
  });
  if (unknown.length > 0) throw new Error(`\`${command}\` uses ${unknown.join(", ")}, which no earlier output of its walk-through shows`);
  return port === undefined ? rewritten : rewritten.replace(/\b(127\.0\.0\.1|localhost):7420\b/g, `$1:${port}`);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a markdown file's headings (outside fenced blocks). */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (FENCE.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) anchors.add(headingAnchor(heading[1]!));
  }
  return anchors;
}

/** Every relative link target of a markdown file (inline links, outside fenced blocks). */
export function relativeLinksOf(text: string): string[] {
  const links: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const match of line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
    }
  }
  return links;
}

/** A short name for a block in a failure message. */
export function where(block: Pick<Block, "file" | "line">): string {
  return `${basename(block.file)}:${block.line}`;
}
