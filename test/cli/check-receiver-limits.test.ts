import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { verifySignature } from "../../src/webhooks/sign.js";
import { runCli } from "../helpers/cli.js";
import { defer } from "../helpers/disposables.js";

const SECRET = "whsec_check_receiver_limits";

/** A receiver on 127.0.0.1 that verifies each delivery and answers as `answer` says; closed with the test. */
async function receiver(answer: (res: import("node:http").ServerResponse, server: Server) => void): Promise<string> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (!verifySignature(Buffer.concat(chunks), req.headers["service-signature"] as string | undefined, SECRET)) {
        res.statusCode = 400;
        return res.end();
      }
      answer(res, server);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
  defer(() => server.closeAllConnections());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

/**
 * A port on 127.0.0.1 whose listener never accepts and whose queue is full: the kernel drops each
 * new connection's SYN, as a host that drops packets does. (Node accepts every connection it
 * listens for, so the listener is a Python one.)
 */
async function droppingPortUrl(): Promise<string> {
  const script = `
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(0)
port = s.getsockname()[1]
fill = []
for _ in range(4):
    c = socket.socket(); c.setblocking(False)
    try: c.connect(("127.0.0.1", port))
    except BlockingIOError: pass
    fill.append(c)
print(port, flush=True)
sys.stdin.read()
`;
  const child = spawn("python3", ["-c", script], { stdio: ["pipe", "pipe", "inherit"] });
  defer(() => {
    child.stdin!.end();
    child.kill();
  });
  const [line] = (await once(child.stdout!.setEncoding("utf8"), "data")) as [string];
  return `http://127.0.0.1:${line.trim()}/hooks`;
}

describe("paysim check-receiver: answers it could not read, duplicates, unreachable hosts (issue 32 items 5, 6)", () => {
  it("grades a receiver whose answer carries more than 16 KiB of headers, instead of calling it unreachable", async () => {
    const url = await receiver((res) => {
      res.setHeader("X-Large", "a".repeat(20 * 1024));
      res.end("ok");
    });
    const { code, stdout } = await runCli(["check-receiver", url, "--secret", SECRET, "--only", "valid", "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).cases[0]).toMatchObject({ case: "valid", verdict: "pass", got: "200" });
  });

  it("says truthfully that a receiver answered with headers too large to read: a failed case, not exit 2", async () => {
    const url = await receiver((res) => {
      res.setHeader("X-Huge", "a".repeat(300 * 1024));
      res.end("ok");
    });
    const { code, stdout } = await runCli(["check-receiver", url, "--secret", SECRET, "--only", "valid", "--json"]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).cases[0]).toMatchObject({ verdict: "FAIL", reason: "answered with headers over 256 KiB, more than paysim reads" });
  });

  it("warns on a duplicate answered 2xx twice, saying paysim cannot see a second processing and how to fix it; exit 0", async () => {
    const url = await receiver((res) => res.end("ok"));
    const { code, stdout } = await runCli(["check-receiver", url, "--secret", SECRET, "--only", "valid,duplicate"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^duplicate .* 2xx +200, 200 +\d+ ms +warn$/m);
    expect(stdout).toContain(
      "warn duplicate: answered 2xx both times, but paysim cannot see whether your receiver acted on the event twice: make sure it deduplicates on the event id (Service-Event-Id), so that a repeat changes nothing.",
    );
    expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^PASS 1 passed, 1 warned, 0 failed of 2 cases against /);
  });

  it("stops at the first connection that cannot be made to a host that drops packets: exit 2, one timeout, not one per case", async () => {
    const url = await droppingPortUrl();
    const { code, stdout, stderr } = await runCli(["check-receiver", url, "--secret", SECRET, "--timeout", "1000"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trim()).toBe(`paysim: cannot reach a receiver at ${url} (timeout: no connection within 1000 ms): is it running, and listening there?`);
  });

  it("sends nothing more once a receiver that answered turns unreachable, and reports the cases left as not run", async () => {
    const url = await receiver((res, server) => {
      res.setHeader("Connection", "close");
      res.end("ok");
      server.close();
    });
    const { code, stdout } = await runCli(["check-receiver", url, "--secret", SECRET, "--json"]);
    expect(code).toBe(1);
    const document = JSON.parse(stdout);
    expect(document.cases.map((c: any) => [c.case, c.verdict])).toEqual([
      ["valid", "pass"],
      ["duplicate", "FAIL"],
      ["out-of-order", "not run"],
      ["tampered-body", "not run"],
      ["wrong-secret", "not run"],
      ["stale-timestamp", "not run"],
      ["missing-signature", "not run"],
      ["malformed-signature", "not run"],
    ]);
    // The port closes as the first answer ends: the next connection is refused, or (on Node.js 24,
    // when it was opened while the listener was closing) reset. Either way nothing more is sent.
    expect(document.cases[1].reason).toMatch(/^connection (refused|reset)$/);
    expect(document.cases[2].reason).toMatch(/^not sent: the receiver was unreachable \(connection (refused|reset)\), so paysim stopped sending to it$/);
    expect(document.summary).toEqual({ passed: 1, warned: 0, failed: 1, not_run: 6, total: 8 });
  });
});
