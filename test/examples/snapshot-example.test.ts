import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { startPaysim } from "paysim";

it("starts a second paysim from a snapshot of the first", async () => {
  const folder = mkdtempSync(join(tmpdir(), "paysim-fixtures-"));
  const snapshot = join(folder, "one-order.db");
  const key = "sk_test_my_shop_0001";
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": "order-1" };

  const first = await startPaysim({ secretKey: key });
  const created = await fetch(`${first.url}/v1/payment_intents`, { method: "POST", headers, body: JSON.stringify({ amount: 4200 }) });
  const intent = (await created.json()) as { id: string };
  // A consistent copy of everything, taken while paysim keeps serving; mode 0600.
  await first.snapshot(snapshot);
  await first.close();

  // A copy of the snapshot becomes the new instance's database; the file itself is only read.
  const second = await startPaysim({ secretKey: key, importFrom: snapshot });
  const found = await fetch(`${second.url}/v1/payment_intents/${intent.id}`, { headers });
  expect(found.status).toBe(200);
  await second.close();
  rmSync(folder, { recursive: true });
});
