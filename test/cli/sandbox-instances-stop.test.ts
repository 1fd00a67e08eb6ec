import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { usePaysimCli, useTempDir } from "../helpers/disposables.js";

// Issue 38 item 4: instance starts in flight when the parent got SIGTERM had their connection
// closed under them. A stopping paysim now answers each one `503 shutting_down` before its
// connections close (and stops the instance it was starting).
// The child-process tests run the real binary (dist/): run `npm run build` first.

/** One keep-alive connection to paysim that sends raw HTTP/1.1 requests and reads whole answers. */
function connection(url: string): Promise<{ send(request: string): Promise<{ status: number; body: unknown }>; socket: Socket }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.off("error", reject);
      let buffered = "";
      let waiting: { resolve: (answer: { status: number; body: unknown }) => void; reject: (error: Error) => void } | undefined;
      const tryAnswer = () => {
        const end = buffered.indexOf("\r\n\r\n");
        if (end === -1 || !waiting) return;
        const head = buffered.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (Buffer.byteLength(buffered.slice(end + 4)) < length) return;
        const body = buffered.slice(end + 4, end + 4 + length);
        buffered = buffered.slice(end + 4 + length);
        const done = waiting;
        waiting = undefined;
        done.resolve({ status: Number(head.split(" ")[1]), body: JSON.parse(body) });
      };
      socket.setEncoding("utf8").on("data", (chunk: string) => {
        buffered += chunk;
        tryAnswer();
      });
      socket.on("close", () => waiting?.reject(new Error(`connection closed without an answer (had ${JSON.stringify(buffered)})`)));
      resolve({
        socket,
        send(request) {
          return new Promise((resolveAnswer, rejectAnswer) => {
            waiting = { resolve: resolveAnswer, reject: rejectAnswer };
            socket.write(request);
          });
        },
      });
    });
  });
}

const request = (method: string, path: string, key: string, body?: string, extra = "") =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n${extra}` +
  (body === undefined ? "\r\n" : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);

describe("POST /v1/sandbox/instances while the real paysim gets SIGTERM", () => {
  it("answers every start in flight, 503 shutting_down in the documented error shape, before its connection closes", async () => {
    const { cli, url, key } = await usePaysimCli(["--no-ui", "--db", ":memory:"], { cwd: useTempDir("paysim-instances-stop-") });
    // Connections paysim has accepted (each answered a first request), kept open.
    const connections = await Promise.all(Array.from({ length: 6 }, () => connection(url)));
    for (const each of connections) expect((await each.send(request("GET", "/v1/sandbox/instances", key))).status).toBe(200);

    // Paysim is paused while the starts arrive, then SIGTERM follows them: it reads the starts
    // first (their bytes were waiting before the signal), so each is under way when the stop begins.
    cli.child.kill("SIGSTOP");
    const answers = connections.map((each, n) =>
      each
        .send(request("POST", "/v1/sandbox/instances", key, "{}", `Idempotency-Key: stop-${n}\r\n`))
        .catch((error: Error) => ({ status: 0, body: error.message })),
    );
    cli.child.kill("SIGCONT");
    cli.child.kill("SIGTERM");

    const settled = await Promise.all(answers);
    expect((await cli.exit).code).toBe(0);
    // Each gets an answer, never a closed connection: 503 shutting_down, or, for a start that was
    // done before paysim took the signal (on a loaded machine the signal can be seen a turn late), 201.
    for (const answer of settled) {
      expect([201, 503], JSON.stringify(answer.body)).toContain(answer.status);
      if (answer.status === 201) continue;
      expect(answer.body).toEqual({
        error: { code: "shutting_down", message: expect.stringMatching(/^paysim is stopping: the instance was not started/) },
        request_id: expect.stringMatching(/^req_/),
      });
    }
  });
});
