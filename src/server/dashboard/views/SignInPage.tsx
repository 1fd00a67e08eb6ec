/** @jsxImportSource hono/jsx */
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
        <p class="lead">One company at a time. Use the one-time link that <code>paysim start</code> printed, or its secret key.</p>
        <form class="card attempts" method="post" action="/dashboard/login">
          <input type="hidden" name="csrf" value={token} />
          {error ? <p class="notice error" role="alert" id="key-error">{error}</p> : null}
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
          <button class="btn primary" type="submit">Sign in</button>
        </form>
        <p class="muted">The session lives in paysim's memory: restarting paysim signs you out. The key itself is never kept in the session.</p>
      </div>
    </Layout>
  );
}

/** A page that only says something: a refused form, an unknown page, a used link. */
export function MessageBody({ title, text, requestId, action }: { title: string; text: string; requestId?: string | undefined; action?: { href: string; label: string } | undefined }) {
  return (
    <div class="signin">
      <h1>{title}</h1>
      <p class="lead">{text}</p>
      {action ? <p class="attempts"><a class="btn primary" href={action.href}>{action.label}</a></p> : null}
      {requestId ? <p class="muted mono attempts">Request {requestId}</p> : null}
    </div>
  );
}
