/** The longest webhook endpoint URL paysim stores. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** What a webhook endpoint URL must look like, to follow the name of the field or flag in an error message. */
export const WEBHOOK_URL_RULE = "must be an http:// or https:// URL, e.g. http://localhost:3000/webhooks";

/** An http(s) URL without credentials (fetch refuses them, and they would show in every delivery record). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/** A URL a webhook endpoint may have, wherever it comes from: the API, a config file or --forward-to. */
export function isWebhookUrl(value: string): boolean {
  return value.length <= WEBHOOK_URL_MAX_LENGTH && isHttpUrl(value);
}
