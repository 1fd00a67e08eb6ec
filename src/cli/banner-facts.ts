import { isLoopbackAddress } from "../domain/loopback.js";
import type { PaysimInstance } from "../paysim.js";
import type { BannerFacts } from "../ui/banner.js";
import { VERSION } from "../version.js";

/** What the banner says of a started instance: the live view and the log lines print it the same way. */
export function bannerFacts(
  instance: Pick<PaysimInstance, "url" | "companies"> & Partial<Pick<PaysimInstance, "dashboardLoginUrl" | "keptFromBeforeMarking">>,
  options: { db: string; host: string },
): BannerFacts {
  return {
    version: VERSION,
    url: instance.url,
    // A fresh one-time link each time the banner is built: it is printed once, at start.
    dashboardLoginUrl: instance.dashboardLoginUrl?.(),
    db: options.db,
    companies: instance.companies.map(({ company, secretKey, endpoints }) => ({
      name: company.name,
      currency: company.currency,
      isDefault: company.is_default === 1,
      secretKey,
      endpoints: endpoints.map((e) => ({ url: e.url, secret: e.secret })),
    })),
    exposedHost: isLoopbackAddress(options.host) ? undefined : options.host,
    keptFromBeforeMarking: instance.keptFromBeforeMarking?.map(({ id, url }) => ({ id, url })),
  };
}
