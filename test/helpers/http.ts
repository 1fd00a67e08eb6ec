import { request } from "node:http";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: any;
}

export interface RawRequest {
  method: string;
  path: string;
  /** Sent exactly as given (fetch would override Host or Content-Length). */
  headers?: Record<string, string | number>;
  body?: string | Buffer;
  /** Send the body in pieces with Transfer-Encoding: chunked and no Content-Length. */
  chunked?: boolean;
}

/**
 * One request through node:http, for what fetch does not let a test control:
 * the Host header, a chunked body without Content-Length, exact header values.
 */
export function rawRequest(baseUrl: string, call: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const headers: Record<string, string | number> = { ...call.headers };
  if (call.chunked) headers["Transfer-Encoding"] = "chunked";
  return new Promise((resolve, reject) => {
    // A fresh connection each time: a test that lies about Content-Length must not poison the next request.
    const req = request({ host: url.hostname, port: url.port, method: call.method, path: call.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    if (call.body !== undefined) {
      const bytes = Buffer.from(call.body);
      if (call.chunked) {
        for (let i = 0; i < bytes.length; i += 8192) req.write(bytes.subarray(i, i + 8192));
      } else {
        req.write(bytes);
      }
    }
    req.end();
  });
}
