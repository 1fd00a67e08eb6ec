/** @jsxImportSource hono/jsx */
import { Layout } from "./Layout.js";

export interface MessagePageProps {
  title: string;
  message: string;
  nonce: string;
  /** Shown small, so a developer can find the request in paysim's log. */
  requestId?: string | undefined;
}

/** A page that only explains something went wrong: unknown payment, refused form, internal error. */
export function MessagePage({ title, message, nonce, requestId }: MessagePageProps) {
  return (
    <Layout title={title} nonce={nonce}>
      <main class="sheet result">
        <div class="status-icon status-off" aria-hidden="true">
          <svg width="32" height="32" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round">
            <path d="M12 8v5m0 3.5v.01M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z" />
          </svg>
        </div>
        <h1>{title}</h1>
        <p class="lead">{message}</p>
        {requestId ? <p class="closing mono">Request {requestId}</p> : null}
      </main>
    </Layout>
  );
}

/** The 404 page of an unknown (or mistyped) checkout link. */
export function NotFoundPage({ nonce, requestId }: { nonce: string; requestId?: string | undefined }) {
  return (
    <MessagePage
      title="Payment not found"
      message="This payment link is not valid. Check the link you were given, or ask the merchant for a new one."
      nonce={nonce}
      requestId={requestId}
    />
  );
}
