import * as z from "zod";
import { sha256Hex } from "../shared/sha256.js";
import { holdsCardNumber } from "./masking.js";
import { need, needOneOf } from "./validation.js";

/**
 * Fault rules (docs/faults.md): what a rule may do to a request, which requests it matches, and
 * whether the n-th request it matches is hit. Pure: the store keeps the rules and their
 * counters, the HTTP layer carries the faults out.
 */

/** The five faults, in docs/faults.md's order. */
export const FAULT_KINDS = ["server_error", "rate_limited", "lost_response", "timeout", "latency"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The methods a rule may name; paysim's API uses GET, POST and DELETE. */
export const FAULT_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

export const MAX_FAULT_TIMES = 10_000;
export const MAX_FAULT_LATENCY_MS = 60_000;
export const MAX_RETRY_AFTER_SECONDS = 3600;
/** The Retry-After of a `rate_limited` rule that gives no `retry_after_seconds`. */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;
/** How long a `timeout` holds the connection when the rule gives no `latency_ms`. */
export const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_PATH_LENGTH = 1000;

/** The faults that wait `latency_ms`: the others refuse it rather than ignore it. */
const WAITING_FAULTS: ReadonlySet<FaultKind> = new Set(["timeout", "latency"]);

const PATH_RULE = "a /v1/… path whose segments are names or * (one whole segment each), e.g. /v1/payment_intents/*/capture";
// A segment is `*` or RFC 3986 path characters without `*`: a `*` inside a name would read as a wildcard it is not.
const PATH_PATTERN = /^\/v1(\/(\*|[A-Za-z0-9._~!$&'()+,;=:@%-]+))+$/;
const TIMES_RULE = `an integer from 1 to ${MAX_FAULT_TIMES}`;
const LATENCY_RULE = `an integer number of milliseconds from 1 to ${MAX_FAULT_LATENCY_MS}`;
const RETRY_AFTER_RULE = `an integer number of seconds from 0 to ${MAX_RETRY_AFTER_SECONDS}`;

/** Whether paysim ever faults a request to `path`: the /v1 API, but never its sandbox controls. */
export function isFaultablePath(path: string): boolean {
  return path.startsWith("/v1/") && path !== "/v1/sandbox" && !path.startsWith("/v1/sandbox/");
}

/** An integer field from `min` to `max`, every refusal saying `rule`. */
function integerField(field: string, min: number, max: number, rule: string) {
  const wrong = { error: `${field} must be ${rule}.` };
  return z
    .number({ error: need(field, rule) })
    .int(wrong)
    .min(min, wrong)
    .max(max, wrong);
}

/**
 * The body of `POST /v1/sandbox/faults` and the argument of `faults.add()`: the one schema of a
 * new rule, with docs/faults.md's ranges. Unknown fields are refused; so is `latency_ms` on a fault that
 * does not wait, a `latency` without it, and a path no request could be faulted on.
 */
export const faultRuleSchema = z.lazy(() =>
  z
    .strictObject({
      fault: z.enum(FAULT_KINDS, { error: needOneOf("fault", FAULT_KINDS) }),
      match: z
        .strictObject(
          {
            method: z.enum(FAULT_METHODS, { error: needOneOf("match.method", FAULT_METHODS) }).optional(),
            path: z
              .string({ error: need("match.path", PATH_RULE) })
              .max(MAX_PATH_LENGTH, { error: `match.path must be at most ${MAX_PATH_LENGTH} characters.` })
              // Masked on the way in like any text, a card number could only be stored masked, and a
              // rule for a masked path matches no request: refused instead, before the shape is checked.
              .refine((path) => !holdsCardNumber(path), {
                error: "match.path holds a card number, which paysim never stores: write * for that segment, e.g. /v1/payment_intents/*.",
                abort: true,
              })
              .regex(PATH_PATTERN, { error: `match.path must be ${PATH_RULE}.` })
              .refine((path) => isFaultablePath(path.replaceAll("*", "x")), {
                error: "match.path may not name /v1/sandbox/…: the sandbox controls are never faulted.",
              })
              // For the OpenAPI document: the shape and the sandbox refusal as one pattern; the card-number rule in words.
              .meta({
                pattern: `^(?!/v1/sandbox(?:/|$))${PATH_PATTERN.source.slice(1)}`,
                description: "A path pattern; it holds no card number (write * for such a segment).",
              })
              .optional(),
          },
          { error: need("match", 'an object with "method" and/or "path"') },
        )
        .optional(),
      times: integerField("times", 1, MAX_FAULT_TIMES, TIMES_RULE).optional(),
      probability: z
        .number({ error: need("probability", "a number from 0 to 1") })
        .min(0, { error: "probability must be a number from 0 to 1." })
        .max(1, { error: "probability must be a number from 0 to 1." })
        .optional(),
      latency_ms: integerField("latency_ms", 1, MAX_FAULT_LATENCY_MS, LATENCY_RULE).optional(),
      retry_after_seconds: integerField("retry_after_seconds", 0, MAX_RETRY_AFTER_SECONDS, RETRY_AFTER_RULE)
        .optional()
        .meta({
          description: `rate_limited only: the Retry-After seconds of its 429, 0 to ${MAX_RETRY_AFTER_SECONDS}; ${DEFAULT_RETRY_AFTER_SECONDS} when absent.`,
        }),
      seed: z
        .number({ error: need("seed", "an integer") })
        .int({ error: "seed must be an integer." })
        .optional(),
    })
    // What the refinement below checks, for the OpenAPI document.
    .meta({
      allOf: [
        { if: { properties: { fault: { enum: ["latency"] } } }, then: { required: ["latency_ms"] } },
        { if: { properties: { fault: { enum: FAULT_KINDS.filter((kind) => !WAITING_FAULTS.has(kind)) } } }, then: { not: { required: ["latency_ms"] } } },
        {
          if: { properties: { fault: { enum: FAULT_KINDS.filter((kind) => kind !== "rate_limited") } } },
          then: { not: { required: ["retry_after_seconds"] } },
        },
      ],
    })
    .superRefine((rule, ctx) => {
      if (rule.fault === "latency" && rule.latency_ms === undefined) {
        ctx.addIssue({ code: "custom", path: ["latency_ms"], input: undefined, message: `latency_ms is required for the latency fault: ${LATENCY_RULE}.` });
      }
      if (!WAITING_FAULTS.has(rule.fault) && rule.latency_ms !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["latency_ms"],
          input: rule.latency_ms,
          message: `latency_ms applies only to the latency and timeout faults; remove it for ${rule.fault}.`,
        });
      }
      if (rule.fault !== "rate_limited" && rule.retry_after_seconds !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["retry_after_seconds"],
          input: rule.retry_after_seconds,
          message: `retry_after_seconds applies only to the rate_limited fault; remove it for ${rule.fault}.`,
        });
      }
    }),
);

/** A new rule as a caller gives it. */
export type FaultRuleInput = z.input<typeof faultRuleSchema>;

/** A rule's settings with every default applied. */
export interface FaultRuleSettings {
  fault: FaultKind;
  method: string | null;
  path: string | null;
  times: number;
  probability: number;
  /** The wait of a `latency` or `timeout`; null for the faults that do not wait. */
  latencyMs: number | null;
  /** The Retry-After of a `rate_limited`; null for the other faults. */
  retryAfterSeconds: number | null;
  seed: number;
}

/** A checked rule with its defaults: `times` 1, `probability` 1, `seed` 0, a `timeout` of 30 s, a `rate_limited`'s Retry-After 1. */
export function faultRuleSettings(rule: z.output<typeof faultRuleSchema>): FaultRuleSettings {
  const latencyMs = rule.fault === "timeout" ? (rule.latency_ms ?? DEFAULT_TIMEOUT_MS) : (rule.latency_ms ?? null);
  return {
    fault: rule.fault,
    method: rule.match?.method ?? null,
    path: rule.match?.path ?? null,
    times: rule.times ?? 1,
    probability: rule.probability ?? 1,
    latencyMs,
    retryAfterSeconds: rule.fault === "rate_limited" ? (rule.retry_after_seconds ?? DEFAULT_RETRY_AFTER_SECONDS) : null,
    seed: rule.seed ?? 0,
  };
}

/** How many active rules a company may hold (docs/faults.md): past it, adding one is refused. */
export const MAX_ACTIVE_FAULT_RULES = 100;

/**
 * A path as routing reads it: percent-decoded as `decodeURI` decodes (so `%5F` is `_`, while an
 * encoded `/` stays `%2F` and `%25` stays `%25`), and a sequence that is no valid UTF-8 left as
 * written. A rule's path and a request's path are compared in this form, the one the routes are
 * chosen by (Hono's): a rule for /v1/payment_intents matches /v1/payment%5Fintents, which
 * routing serves as the same endpoint.
 *
 * @example
 * routedPath("/v1/payment%5Fintents") // "/v1/payment_intents"
 */
export function routedPath(path: string): string {
  if (!path.includes("%")) return path;
  const decode = (text: string) => decodeURI(text.replace(/%25/g, "%2525"));
  try {
    return decode(path);
  } catch {
    return path.replace(/(?:%[0-9A-Fa-f]{2})+/g, (encoded) => {
      try {
        return decode(encoded);
      } catch {
        return encoded;
      }
    });
  }
}

/** What the index needs of a rule: fixed for the rule's life. */
export interface IndexableRule {
  id: string;
  /** Creation order: rules are tried oldest first. */
  seq: number;
  method: string | null;
  path: string | null;
}

/** One position in the tree of path patterns: the literal segments and `*` that follow, and the rules ending here by method. */
interface PatternNode<R> {
  literal: Map<string, PatternNode<R>>;
  wildcard: PatternNode<R> | undefined;
  /** The rules whose pattern ends here, by method (null: any method). */
  rules: Map<string | null, R[]>;
}

const patternNode = <R>(): PatternNode<R> => ({ literal: new Map(), wildcard: undefined, rules: new Map() });

/** A pattern's segments: `*` (written as such) stands for one segment, every other segment is read as routing reads it. */
const WILDCARD = Symbol("*");
function patternSegments(path: string): (string | typeof WILDCARD)[] {
  return path.split("/").map((segment) => (segment === "*" ? WILDCARD : routedPath(segment)));
}

/**
 * One company's fault rules, indexed by path pattern and method, so that finding the rules a
 * request matches costs what the matching rules cost, not what the others do: a request walks the
 * tree of patterns along its own segments, and each rule list it reaches is one method's.
 *
 * @example
 * const index = createFaultRuleIndex();
 * index.add({ id: "flt_1", seq: 1, method: "POST", path: "/v1/payment_intents/*\/capture" });
 * index.matching("POST", "/v1/payment_intents/pi_1/capture") // [that rule]
 */
export function createFaultRuleIndex<R extends IndexableRule>() {
  const root = patternNode<R>();
  const byId = new Map<string, { rule: R; list: R[] }>();

  const nodeFor = (path: string | null): PatternNode<R> => {
    if (path === null) return root;
    let node = root;
    for (const segment of patternSegments(path)) {
      if (segment === WILDCARD) node = node.wildcard ??= patternNode();
      else {
        let next = node.literal.get(segment);
        if (!next) node.literal.set(segment, (next = patternNode()));
        node = next;
      }
    }
    return node;
  };

  /** The rules of every pattern along `segments` from `node`, for the method and for any method. */
  function collect(node: PatternNode<R>, segments: readonly string[], i: number, method: string, out: R[]): void {
    if (i === segments.length) {
      out.push(...(node.rules.get(null) ?? []), ...(node.rules.get(method) ?? []));
      return;
    }
    const segment = segments[i]!;
    const literal = node.literal.get(segment);
    if (literal) collect(literal, segments, i + 1, method, out);
    if (node.wildcard && segment !== "") collect(node.wildcard, segments, i + 1, method, out);
  }

  return {
    get size() {
      return byId.size;
    },
    add(rule: R): void {
      const rules = nodeFor(rule.path).rules;
      let list = rules.get(rule.method);
      if (!list) rules.set(rule.method, (list = []));
      list.push(rule);
      byId.set(rule.id, { rule, list });
    },
    remove(id: string): void {
      const found = byId.get(id);
      if (!found) return;
      found.list.splice(found.list.indexOf(found.rule), 1);
      byId.delete(id);
    },
    /**
     * The rules that match a request, oldest first: its method, and its path as routing reads it
     * (Hono's `c.req.path` already is). Sandbox controls and pages outside /v1 match none.
     */
    matching(method: string, path: string): R[] {
      if (byId.size === 0 || !isFaultablePath(path)) return [];
      const out: R[] = [];
      // Rules without a path match every faultable path; the others, their pattern's segments.
      out.push(...(root.rules.get(null) ?? []), ...(root.rules.get(method) ?? []));
      collect(root, path.split("/"), 0, method, out);
      return out.sort((a, b) => a.seq - b.seq);
    },
  };
}

export type FaultRuleIndex<R extends IndexableRule> = ReturnType<typeof createFaultRuleIndex<R>>;

/**
 * Whether a rule's `match` takes a request: its method (any when null) and its path pattern
 * (every /v1 path when null), where `*` stands for exactly one non-empty segment, both paths read
 * as routing reads them. Sandbox controls, /health, the checkout pages and the dashboard are never matched.
 *
 * @example
 * matchesRequest({ method: "POST", path: "/v1/payment_intents/*\/capture" }, "POST", "/v1/payment_intents/pi_1/capture") // true
 */
export function matchesRequest(match: { method: string | null; path: string | null }, method: string, path: string): boolean {
  const index = createFaultRuleIndex();
  index.add({ id: "", seq: 0, ...match });
  return index.matching(method, routedPath(path)).length > 0;
}

/**
 * A number in [0, 1) drawn from the seed and the match's ordinal (0 for the first request the
 * rule matched, 1 for the next…). It depends on nothing else, not the rule's random id nor the
 * time, so the same rule and the same requests are hit the same way in every run.
 */
export function faultDraw(seed: number, ordinal: number): number {
  // 48 bits of a hash of both: as uniform as needed, and exact in a double.
  return Number.parseInt(sha256Hex(`paysim-fault:${seed}:${ordinal}`).slice(0, 12), 16) / 2 ** 48;
}

/**
 * Whether the `ordinal`-th request a rule matched is hit: always with probability 1, never
 * with 0, otherwise when the seeded draw falls below the probability.
 *
 * @example
 * hitsMatch({ probability: 1, seed: 0 }, 7) // true
 */
export function hitsMatch(rule: { probability: number; seed: number }, ordinal: number): boolean {
  if (rule.probability >= 1) return true;
  if (rule.probability <= 0) return false;
  return faultDraw(rule.seed, ordinal) < rule.probability;
}
