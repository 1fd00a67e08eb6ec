import { holdsCardNumber } from "./masking.js";

/** The longest webhook endpoint URL paysim stores. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** What a webhook endpoint URL must look like, to follow the name of the field or flag in an error message. */
export const WEBHOOK_URL_RULE = "must be an http:// or https:// URL, e.g. http://localhost:3000/webhooks";

/**
 * The shape of a webhook endpoint URL for the OpenAPI document: http or https, a host name (no
 * punycode label, which would have to decode), an IPv4 address or [::1], a port up to 65535, then
 * printable ASCII. Every string it matches is a URL `isHttpUrl` accepts; the card-number rule
 * (`hasNoCardNumber`) is beyond a pattern and is told in words (docs/api.md, "The OpenAPI document").
 */
const LABEL = "(?![Xx][Nn]--)[A-Za-z0-9-]+";
const OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
const PORT = "(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})";
export const WEBHOOK_URL_PATTERN = `^https?://(?:(?:${LABEL}\\.)*(?![Xx][Nn]--)[A-Za-z][A-Za-z0-9-]*|(?:${OCTET}\\.){3}${OCTET}|\\[::1\\])(?::${PORT})?(?:[/?#][!-~]*)?$`;

/** What the OpenAPI document says of a webhook endpoint URL beyond its pattern. */
export const WEBHOOK_URL_DESCRIPTION = `An http:// or https:// URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters, without credentials, that holds no card number (13 or more digits, clear, percent-encoded or masked).`;

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

/**
 * What a webhook endpoint URL holding a card number is told, after the name of the field or flag.
 * Such a URL is refused rather than stored masked: a masked URL would send every delivery somewhere
 * other than the address given, and in clear it would sit in the database, the logs and every
 * delivery request. The message never repeats the URL.
 */
export const CARD_NUMBER_IN_URL_RULE =
  "looks like a card number: it holds 13 or more digits (clear, percent-encoded or already masked). Webhook URLs must not carry card data; use an address without it";

/** Whether a webhook endpoint URL is free of card numbers in any form (docs/guarantees.md). */
export function hasNoCardNumber(url: string): boolean {
  return !holdsCardNumber(url);
}
