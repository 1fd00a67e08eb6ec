import { holdsCardNumber } from "./masking.js";

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
