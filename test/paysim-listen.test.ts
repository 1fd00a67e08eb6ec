import { describe, expect, it } from "vitest";
import { createPaysim } from "../src/paysim.js";
import { defer } from "./helpers/disposables.js";
import { closedPortUrl } from "./helpers/receiver.js";

describe("createPaysim({ listen: false })", () => {
  it("holds no port, names where it would listen, and answers through app.request()", async () => {
    const port = Number(new URL(await closedPortUrl()).port);
    const paysim = await createPaysim({ listen: false, port });
    defer(() => paysim.close());
    expect(paysim.url).toBe(`http://127.0.0.1:${port}`);
    await expect(fetch(`${paysim.url}/health`)).rejects.toThrow();
    const created = await paysim.app.request(`${paysim.url}/v1/payment_intents`, {
      method: "POST",
      headers: { Authorization: `Bearer ${paysim.secretKey}`, "Content-Type": "application/json", "Idempotency-Key": "k1" },
      body: JSON.stringify({ amount: 1000 }),
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { checkout_url: string }).checkout_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/checkout/pi_`));
  });
});
