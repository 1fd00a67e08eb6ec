/** @jsxImportSource hono/jsx */

/**
 * The <head> of paysim's own pages: not indexed, no referrer beyond this
 * origin, one stylesheet inlined under the response's nonce, nothing fetched.
 */
export function DocumentHead({ title, nonce, styles }: { title: string; nonce: string; styles: string }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex, nofollow" />
      <meta name="referrer" content="same-origin" />
      <title>{title}</title>
      {/* An empty icon, so the browser does not ask the server for /favicon.ico. */}
      <link rel="icon" href="data:," />
      <style nonce={nonce} dangerouslySetInnerHTML={{ __html: styles }} />
    </head>
  );
}
