import { connect } from "node:net";

export interface SocketResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Decodes a chunked body. */
function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", offset);
    if (lineEnd === -1) break;
    const size = parseInt(data.subarray(offset, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/**
 * Sends bytes exactly as given over a fresh TCP connection and reads the one
 * answer (the request must say `Connection: close`). For what no HTTP client
 * will send: invalid UTF-8, odd methods, bodies that lie about their length.
 */
export function sendRaw(port: number, request: Buffer): Promise<SocketResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const data = Buffer.concat(chunks);
      const headEnd = data.indexOf("\r\n\r\n");
      if (headEnd === -1) return reject(new Error(`no HTTP answer: ${JSON.stringify(data.toString("latin1").slice(0, 200))}`));
      const [statusLine, ...lines] = data.subarray(0, headEnd).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const rest = data.subarray(headEnd + 4);
      resolve({
        status: Number(statusLine!.split(" ")[1]),
        headers,
        body: headers["transfer-encoding"] === "chunked" ? dechunk(rest) : rest,
      });
    });
    socket.end(request);
  });
}

/** Builds an HTTP/1.1 request with `Connection: close` and a correct Content-Length. */
export function buildRequest(method: string, path: string, headers: Record<string, string>, body?: Buffer): Buffer {
  const head = [`${method} ${path} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close"];
  for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
  if (body !== undefined) head.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"), body ?? Buffer.alloc(0)]);
}
