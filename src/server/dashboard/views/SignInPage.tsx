/** @jsxImportSource hono/jsx */
import { SIGN_IN_PATH } from "../nav.js";
import { Layout } from "./Layout.js";

export interface SignInPageProps {
  nonce: string;
  /** The sign-in form's CSRF token (there is no session yet). */
  token: string;
  error?: string | undefined;
  status?: string | undefined;
}

/** Sign-in by secret key, with a word on the one-time link `paysim start` prints. */
export function SignInPage({ nonce, token, error, status }: SignInPageProps) {
  return (
    <Layout title="Sign in" nonce={nonce} notice={status ? { kind: "ok", text: status } : undefined}>
      <div class="signin">
        <h1>Sign in to the dashboard</h1>
        <p class="lead">
          One company at a time. Use the one-time link that <code>paysim start</code> printed, or its secret key.
        </p>
        <form class="card attempts" method="post" action={SIGN_IN_PATH}>
          <input type="hidden" name="csrf" value={token} />
          {error ? (
            <p class="notice error" role="alert" id="key-error">
              {error}
            </p>
          ) : null}
          <div class="field">
            <label for="secret-key">Secret key</label>
            <input
              id="secret-key"
              type="password"
              name="key"
              required
              autocomplete="off"
              spellcheck={false}
              placeholder="sk_test_…"
              aria-invalid={error ? "true" : undefined}
              aria-describedby={error ? "key-error" : undefined}
              autofocus
            />
          </div>
          <button class="btn primary" type="submit">
            Sign in
          </button>
        </form>
        <p class="muted">
          Each sign-in gets an address of its own (<code>/dashboard/…/events</code>) that no other app on this computer can learn; opening{" "}
          <code>/dashboard</code> always comes here. The session lives in paysim's memory: restarting paysim signs you out. The key itself is never kept in the
          session.
        </p>
      </div>
    </Layout>
  );
}

export interface LinkSignInPageProps {
  nonce: string;
  /** Where the button posts: the link itself. */
  action: string;
  /** The form token of this link (an HMAC of its token). */
  formToken: string;
  companyName: string;
}

/**
 * What the one-time link opens: a button that signs in. Only its POST spends the link,
 * so a link preview, a prefetch or a curl of the address leaves it working.
 */
export function LinkSignInPage({ nonce, action, formToken, companyName }: LinkSignInPageProps) {
  return (
    <Layout title="Sign in" nonce={nonce}>
      <div class="signin">
        <h1>Sign in to the dashboard</h1>
        <p class="lead">
          This one-time link signs this browser in to <strong>{companyName}</strong>.
        </p>
        <form class="card attempts" method="post" action={action}>
          <input type="hidden" name="csrf" value={formToken} />
          <button class="btn primary" type="submit">
            Sign in to {companyName}
          </button>
        </form>
        <p class="muted">
          The link works once, for 10 minutes after paysim printed it. Did not expect it? Close this page: nothing happens until the button is pressed.
        </p>
      </div>
    </Layout>
  );
}

/** A page that only says something: a refused form, an unknown page, a used link. */
export function MessageBody({
  title,
  text,
  requestId,
  action,
}: {
  title: string;
  text: string;
  requestId?: string | undefined;
  action?: { href: string; label: string } | undefined;
}) {
  return (
    <div class="signin">
      <h1>{title}</h1>
      <p class="lead">{text}</p>
      {action ? (
        <p class="attempts">
          <a class="btn primary" href={action.href}>
            {action.label}
          </a>
        </p>
      ) : null}
      {requestId ? <p class="muted mono attempts">Request {requestId}</p> : null}
    </div>
  );
}
