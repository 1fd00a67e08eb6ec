import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfigFile, parseConfig } from "../src/config.js";
import { ConfigError } from "../src/domain/start-inputs.js";
import { suiteScope, useTempDir } from "./helpers/disposables.js";

const thisFile = suiteScope();
let folder: string;
beforeAll(() => {
  folder = useTempDir("paysim-config-", thisFile);
});

let files = 0;
function configFile(content: unknown): string {
  const path = join(folder, `config-${++files}.json`);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

function refusal(load: () => unknown): ConfigError {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected the config to be refused");
}

const company = (extra: object = {}) => ({ name: "Acme", ...extra });
const endpoint = (extra: object = {}) => ({ url: "http://127.0.0.1:3000/hooks", ...extra });

describe("a bad config file is refused naming the file and the field", () => {
  it.each([
    ["a lower-case currency", { companies: [company({ currency: "eur" })] }, "companies[0].currency"],
    ["an unknown currency", { companies: [company({ currency: "XYZ" })] }, "companies[0].currency"],
    ["a non-string currency", { companies: [company({ currency: 978 })] }, "companies[0].currency"],
    ["an unknown company field", { companies: [company({ colour: "red" })] }, 'unknown field "companies[0].colour"'],
    ["an unknown top-level field", { companies: [company()], compnies: [] }, 'unknown field "compnies"'],
    [
      "an unknown endpoint field",
      { companies: [company({ webhook_endpoints: [endpoint({ events: [] })] })] },
      'unknown field "companies[0].webhook_endpoints[0].events"',
    ],
    ["a duplicate company name", { companies: [company(), { name: "Other" }, company()] }, "companies[2].name"],
    ["a secret_key without sk_test_", { companies: [company({ secret_key: "sk_live_0123456789" })] }, "companies[0].secret_key"],
    ["a secret_key with nothing after sk_test_", { companies: [company({ secret_key: "sk_test_" })] }, "companies[0].secret_key"],
    ["a secret_key of 201 characters after sk_test_", { companies: [company({ secret_key: `sk_test_${"a".repeat(201)}` })] }, "companies[0].secret_key"],
    ["a secret_key with a non-ASCII character", { companies: [company({ secret_key: "sk_test_acmé" })] }, "companies[0].secret_key"],
    ["a secret_key with a space", { companies: [company({ secret_key: "sk_test_0123 456789" })] }, "companies[0].secret_key"],
    [
      "a secret_key used twice",
      { companies: [company({ secret_key: "sk_test_shared_0001" }), { name: "B", secret_key: "sk_test_shared_0001" }] },
      "companies[1].secret_key",
    ],
    ["an empty company name", { companies: [{ name: "  " }] }, "companies[0].name"],
    ["a missing company name", { companies: [{ currency: "EUR" }] }, "companies[0].name"],
    ["no companies", { companies: [] }, "companies"],
    ["a missing companies list", {}, "companies"],
    [
      "an endpoint URL that is not http(s)",
      { companies: [company({ webhook_endpoints: [endpoint({ url: "ftp://example.com/x" })] })] },
      "companies[0].webhook_endpoints[0].url",
    ],
    [
      "an endpoint URL holding a card number",
      { companies: [company({ webhook_endpoints: [endpoint({ url: "http://127.0.0.1:3000/hook/4242%204242%204242%204242" })] })] },
      "companies[0].webhook_endpoints[0].url looks like a card number",
    ],
    [
      "an endpoint secret without whsec_",
      { companies: [company({ webhook_endpoints: [endpoint({ secret: "secret_0123456789" })] })] },
      "companies[0].webhook_endpoints[0].secret",
    ],
    [
      "an endpoint secret with nothing after whsec_",
      { companies: [company({ webhook_endpoints: [endpoint({ secret: "whsec_" })] })] },
      "companies[0].webhook_endpoints[0].secret",
    ],
    [
      "an endpoint secret with a space",
      { companies: [company({ webhook_endpoints: [endpoint({ secret: "whsec_a b" })] })] },
      "companies[0].webhook_endpoints[0].secret",
    ],
    [
      "an endpoint URL that is not a URL",
      { companies: [company({ webhook_endpoints: [endpoint({ url: "notaurl" })] })] },
      "companies[0].webhook_endpoints[0].url",
    ],
    [
      "an endpoint URL over 2048 characters",
      { companies: [company({ webhook_endpoints: [endpoint({ url: `http://127.0.0.1/${"a".repeat(2048)}` })] })] },
      "companies[0].webhook_endpoints[0].url",
    ],
    [
      "an unknown event type",
      { companies: [company({ webhook_endpoints: [endpoint({ enabled_events: ["payment_intent.refunded"] })] })] },
      "companies[0].webhook_endpoints[0].enabled_events[0]",
    ],
    [
      "an empty enabled_events",
      { companies: [company({ webhook_endpoints: [endpoint({ enabled_events: [] })] })] },
      "companies[0].webhook_endpoints[0].enabled_events",
    ],
    ["a top-level array", [company()], "(top level)"],
    [
      "a chaos duplicate above 1",
      { companies: [company({ webhook_endpoints: [endpoint({ chaos: { duplicate: 1.5 } })] })] },
      "companies[0].webhook_endpoints[0].chaos.duplicate must be a number from 0 to 1 (got 1.5)",
    ],
    [
      "a chaos delay_ms with min above max",
      { companies: [company({ webhook_endpoints: [endpoint({ chaos: { delay_ms: [50, 10] } })] })] },
      "companies[0].webhook_endpoints[0].chaos.delay_ms must be a list [min, max]",
    ],
    [
      "a chaos seed that is not an integer",
      { companies: [company({ webhook_endpoints: [endpoint({ chaos: { seed: "x" } })] })] },
      "companies[0].webhook_endpoints[0].chaos.seed must be an integer",
    ],
    [
      "an unknown chaos setting",
      { companies: [company({ webhook_endpoints: [endpoint({ chaos: { shuffle: 1 } })] })] },
      'unknown field "companies[0].webhook_endpoints[0].chaos.shuffle"',
    ],
  ])("%s", (_name, content, field) => {
    const path = configFile(content);
    const error = refusal(() => loadConfigFile(path));
    expect(error.message).toContain(path);
    expect(error.message).toContain(field);
    expect(error.name).toBe("ConfigError");
  });

  it("refuses a file that is not JSON, naming the file", () => {
    const path = configFile("{ companies: [ }");
    const error = refusal(() => loadConfigFile(path));
    expect(error.message).toContain(path);
    expect(error.message).toMatch(/not valid JSON/);
  });

  it("refuses a missing file, naming it and the reason", () => {
    const path = join(folder, "does-not-exist.json");
    const error = refusal(() => loadConfigFile(path));
    expect(error.message).toContain(path);
    expect(error.message).toContain("ENOENT");
  });

  it("names the given source for a config passed as an object", () => {
    const error = refusal(() => parseConfig({ companies: [company({ currency: "eur" })] }, "(options.config)"));
    expect(error.message).toContain("(options.config)");
    expect(error.message).toContain("companies[0].currency");
  });

  it("does not repeat a refused secret_key or signing secret in the message", () => {
    const key = refusal(() => parseConfig({ companies: [company({ secret_key: "sk_live_0123456789" })] }, "f.json"));
    expect(key.message).not.toContain("sk_live_0123456789");
    const secret = refusal(() => parseConfig({ companies: [company({ webhook_endpoints: [endpoint({ secret: "topsecret_0123" })] })] }, "f.json"));
    expect(secret.message).not.toContain("topsecret_0123");
  });
});

describe("a good config file", () => {
  it('fills the documented defaults: currency EUR, no endpoints, enabled_events ["*"], no secret', () => {
    const config = loadConfigFile(configFile({ companies: [company({ webhook_endpoints: [endpoint()] }), { name: "Globex", currency: "USD" }] }));
    expect(config).toEqual({
      companies: [
        { name: "Acme", currency: "EUR", webhook_endpoints: [{ url: "http://127.0.0.1:3000/hooks", enabled_events: ["*"] }] },
        { name: "Globex", currency: "USD", webhook_endpoints: [] },
      ],
    });
  });

  it("keeps what the documented example declares (short keys and secrets such as whsec_acme included)", () => {
    const example = {
      companies: [
        {
          name: "Acme",
          currency: "EUR",
          secret_key: "sk_test_acme_0001",
          webhook_endpoints: [{ url: "http://127.0.0.1:3000/hooks", secret: "whsec_acme", enabled_events: ["*"] }],
        },
        { name: "Globex", currency: "USD", secret_key: "sk_test_globex_0001" },
      ],
    };
    expect(loadConfigFile(configFile(example))).toEqual({
      companies: [example.companies[0], { ...example.companies[1], webhook_endpoints: [] }],
    });
  });

  it.each(["sk_test_x", "sk_test_fw_0001", `sk_test_${"a".repeat(200)}`])("accepts the secret_key %s", (key) => {
    expect(parseConfig({ companies: [company({ secret_key: key })] }, "x").companies[0]!.secret_key).toBe(key);
  });

  it("names the rule in the message for a refused secret_key and signing secret", () => {
    expect(refusal(() => parseConfig({ companies: [company({ secret_key: "sk_test_" })] }, "f.json")).message).toBe(
      "Invalid config file f.json: companies[0].secret_key must be sk_test_ followed by 1 to 200 printable ASCII characters without spaces, e.g. sk_test_x.",
    );
    expect(refusal(() => parseConfig({ companies: [company({ webhook_endpoints: [endpoint({ secret: "whsec_" })] })] }, "f.json")).message).toBe(
      "Invalid config file f.json: companies[0].webhook_endpoints[0].secret must be whsec_ followed by 1 to 200 printable ASCII characters without spaces, e.g. whsec_acme.",
    );
  });

  it("accepts listed event types in enabled_events", () => {
    const config = parseConfig(
      { companies: [company({ webhook_endpoints: [endpoint({ enabled_events: ["payment_intent.captured", "payout.failed"] })] })] },
      "x",
    );
    expect(config.companies[0]!.webhook_endpoints[0]!.enabled_events).toEqual(["payment_intent.captured", "payout.failed"]);
  });
});
