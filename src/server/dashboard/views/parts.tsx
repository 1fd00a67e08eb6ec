/** @jsxImportSource hono/jsx */
import type { Child } from "hono/jsx";
import { dashboardPathOf } from "../../../domain/resources.js";

type Tone = "ok" | "wait" | "fail" | "off";

/** How each state, status and delivery outcome reads at a glance. */
const TONES: Record<string, Tone> = {
  captured: "ok",
  succeeded: "ok",
  authorized: "wait",
  processing: "wait",
  pending: "wait",
  partially_reversed: "wait",
  failed: "fail",
  returned: "fail",
  reversed: "fail",
  created: "off",
  canceled: "off",
};

/** A state or status as a coloured pill; the words carry the meaning, the colour only helps. */
export function Pill({ value, children }: { value: string; children?: Child }) {
  return <span class={`pill ${TONES[value] ?? "off"}`}>{children ?? value.replace(/_/g, " ")}</span>;
}

/** A timestamp of the paysim clock, readable and machine-readable. */
export function Time({ iso }: { iso: string | null }) {
  if (iso === null) return <span class="muted">—</span>;
  return <time datetime={iso}>{iso.replace("T", " ").replace(/\.\d+Z$/, "Z")}</time>;
}

/** A hidden field carrying the session's CSRF token: every dashboard form has one. */
export function Csrf({ token }: { token: string }) {
  return <input type="hidden" name="csrf" value={token} />;
}

/** The page's title row, with an optional link back up and actions on the right. */
export function PageHead({ title, lead, back, children }: { title: string; lead?: Child; back?: { href: string; label: string }; children?: Child }) {
  return (
    <div class="head">
      <div>
        {back ? (
          <a class="crumb" href={back.href}>
            ← {back.label}
          </a>
        ) : null}
        <h1>{title}</h1>
        {lead ? <p class="lead">{lead}</p> : null}
      </div>
      {children ? <div class="actions">{children}</div> : null}
    </div>
  );
}

/** Where an object id links to in the dashboard under the session's `base`, by its prefix. */
export function objectHref(base: string, id: string): string | undefined {
  const path = dashboardPathOf(id);
  return path === undefined ? undefined : `${base}${path}`;
}

/** An object id, linked to its page (under the session's `base`) when it has one. */
export function ObjectLink({ base, id }: { base: string; id: string | null }) {
  if (id === null) return <span class="muted">—</span>;
  const href = objectHref(base, id);
  return href ? (
    <a class="mono" href={href}>
      {id}
    </a>
  ) : (
    <span class="mono">{id}</span>
  );
}

/** "Older →" under a full page of a list, continuing after its last row. */
export function Pager({ base, rows, size }: { base: string; rows: readonly { id: string }[]; size: number }) {
  const last = rows.at(-1);
  if (rows.length < size || !last) return null;
  return (
    <p class="pager">
      <a href={`${base}?starting_after=${encodeURIComponent(last.id)}`}>Older →</a>
    </p>
  );
}

/** A page of a list as a table card: its column heads, its rows, "Older →" under a full page, or a word when empty. */
export function ListCard(props: { label: string; empty: Child; head: Child; base: string; rows: readonly { id: string }[]; size: number; children: Child }) {
  return (
    <section class="card flush" aria-label={props.label}>
      {props.rows.length === 0 ? (
        <p class="empty">{props.empty}</p>
      ) : (
        <div class="table-scroll">
          <table class="stack">
            <thead>
              <tr>{props.head}</tr>
            </thead>
            <tbody>{props.children}</tbody>
          </table>
        </div>
      )}
      <Pager base={props.base} rows={props.rows} size={props.size} />
    </section>
  );
}

/** A labelled number field of a form; its hint names the API field, so a refusal's words point at it. */
export function NumberField(props: { id: string; name: string; label: string; hint: string; min?: number; max?: number; step?: "1" | "any" }) {
  const step = props.step ?? "1";
  return (
    <div class="field">
      <label for={props.id}>
        {props.label} <span class="hint">{props.hint}</span>
      </label>
      <input id={props.id} type="number" name={props.name} min={props.min} max={props.max} step={step} inputmode={step === "1" ? "numeric" : "decimal"} />
    </div>
  );
}

/** A button that posts one action (with the CSRF token and nothing else): delete, remove, clear. */
export function PostButton(props: { action: string; csrf: string; label: string; spoken?: string; tone?: string }) {
  return (
    <form class="inline" method="post" action={props.action}>
      <Csrf token={props.csrf} />
      <button class={`btn ${props.tone ?? ""}`.trim()} type="submit" aria-label={props.spoken}>
        {props.label}
      </button>
    </form>
  );
}
