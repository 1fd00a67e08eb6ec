import type { ListPage } from "./api-types.js";
import type { ApiClient } from "./client.js";

/** The most a list answers at once (docs/api.md, `limit`). */
const PAGE_SIZE = 100;

/**
 * Every object of a list the CLI shows whole (webhook endpoints, fault rules, instances: a few
 * each), read page after page. The answer is the last page's envelope around all of them.
 *
 * @example
 * const page = await wholeList<Endpoint>(client, "/v1/webhook_endpoints");
 */
export async function wholeList<T extends { id: string }>(client: Pick<ApiClient, "call">, path: string): Promise<ListPage<T>> {
  const data: T[] = [];
  let after: string | undefined;
  for (;;) {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (after !== undefined) query.set("starting_after", after);
    const page = await client.call<ListPage<T>>("GET", `${path}?${query}`);
    data.push(...page.data);
    after = page.data.at(-1)?.id;
    if (page.has_more !== true || after === undefined) return { ...page, data, has_more: false };
  }
}
