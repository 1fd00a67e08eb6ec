/** @jsxImportSource hono/jsx */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import { DocumentHead } from "../../document-head.js";
import { NAV, SIGN_IN_PATH, type Section } from "../nav.js";
import { DASHBOARD_STYLES } from "./styles.js";

/** Who is signed in, for the top bar and its sign-out form. */
export interface SignedIn {
  companyName: string;
  csrf: string;
  /** The session's own base path, `/dashboard/<scope>`: every link and form of its pages is under it. */
  base: string;
}

export interface LayoutProps {
  title: string;
  /** The response's CSP nonce: the one thing allowed to style the page or run a script on it. */
  nonce: string;
  /** The section to mark in the navigation; none on the sign-in and error pages. */
  section?: Section | undefined;
  signedIn?: SignedIn | undefined;
  notice?: { kind: "ok" | "error"; text: string } | undefined;
  /** The page's own script (live updates); the page works without it. */
  script?: string | undefined;
  children?: Child;
}

/** The HTML document around every dashboard page: nothing loaded from elsewhere. */
export function Layout({ title, nonce, section, signedIn, notice, script, children }: LayoutProps) {
  return (
    <html lang="en">
      <DocumentHead title={`${title} · paysim dashboard`} nonce={nonce} styles={DASHBOARD_STYLES} />
      <body>
        <a class="skip" href="#content">
          Skip to content
        </a>
        <header class="top">
          <div class="top-inner">
            <a class="brand" href={signedIn ? `${signedIn.base}/events` : SIGN_IN_PATH}>
              paysim <span class="tag">Test mode</span>
            </a>
            {signedIn ? (
              <div class="who">
                <span>
                  Signed in to <strong>{signedIn.companyName}</strong>
                </span>
                <form method="post" action={`${signedIn.base}/logout`}>
                  <input type="hidden" name="csrf" value={signedIn.csrf} />
                  <button class="link-button" type="submit">
                    Sign out
                  </button>
                </form>
              </div>
            ) : null}
          </div>
        </header>
        {signedIn ? (
          <nav class="tabs" aria-label="Dashboard">
            <ul>
              {NAV.map((item) => (
                <li>
                  <a href={`${signedIn.base}${item.path}`} aria-current={item.id === section ? "page" : undefined}>
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <main id="content">
          {notice ? (
            <p class={`notice ${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"}>
              {notice.text}
            </p>
          ) : null}
          {children}
        </main>
        <footer class="foot">paysim sandbox · test mode: no real card is charged and no money moves</footer>
        {script ? <script nonce={nonce}>{raw(script)}</script> : null}
      </body>
    </html>
  );
}
