import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { isLoopbackAddress } from "../domain/loopback.js";
import { INSTANCE_TOKEN_HEADER } from "../shared/instance-token.js";
import { pidAlive, type InstanceFile } from "./instance-file.js";

/**
 * Whether the process an entry of `.paysim/instances/` names is the paysim that wrote it, before
 * `paysim stop` signals it. A pid alone proves nothing: a killed paysim's pid may since belong to
 * another program, and an entry may be planted. So each of these must hold:
 *
 * - the entry has a pid, a token and a URL on this machine (a loopback address, `localhost` or an
 *   address of one of its interfaces): a server elsewhere could claim any pid;
 * - where the system shows which process holds which socket (Linux's /proc), the pid is the
 *   process listening on the URL's port at its address (or on every address): no other program
 *   answers in its place;
 * - the server at the URL, asked /health with the entry's token, answers that pid: a paysim
 *   answers its pid only to a caller naming its own start's token.
 */
export type Proof = { proved: true } | { proved: false; why: string };

/** How long a /health probe may take before the server counts as not answering: a guard for a hung process. */
const PROBE_TIMEOUT_MS = 2000;

export async function proveInstance(file: InstanceFile): Promise<Proof> {
  const { pid, token } = file;
  if (!Number.isInteger(pid) || pid <= 0) return { proved: false, why: "it names no pid" };
  if (typeof token !== "string" || token === "") return { proved: false, why: "it has no token (written by an earlier paysim, or not by paysim)" };
  let url: URL;
  try {
    url = new URL(file.url);
  } catch {
    return { proved: false, why: "its URL is not one" };
  }
  const address = url.hostname.replace(/^\[|\]$/g, "");
  if (url.protocol !== "http:" || !onThisMachine(address)) return { proved: false, why: `its URL ${file.url} is not on this machine` };
  if (!pidAlive(pid)) return { proved: false, why: `pid ${pid} is no longer running` };
  const port = Number(url.port || 80);
  const listening = listenersOf(pid, port, address);
  if (listening === false) return { proved: false, why: `pid ${pid} is not the process listening on port ${port}` };
  const answered = await answeredPid(url.origin, token);
  if (answered === undefined) return { proved: false, why: `no paysim started with its token answers at ${file.url}` };
  if (answered !== pid) return { proved: false, why: `the paysim at ${file.url} runs as pid ${answered}, not ${pid}` };
  return { proved: true };
}

/** The pid /health answers to a caller naming `token`; undefined when nothing answers so. */
async function answeredPid(origin: string, token: string): Promise<number | undefined> {
  try {
    const response = await fetch(`${origin}/health`, { headers: { [INSTANCE_TOKEN_HEADER]: token }, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const body = (await response.json()) as { status?: unknown; pid?: unknown };
    return response.ok && body?.status === "ok" && typeof body.pid === "number" ? body.pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a URL's host is this machine: loopback, `localhost`, or an address of one of its interfaces. */
function onThisMachine(host: string): boolean {
  if (isLoopbackAddress(host)) return true;
  if (isIP(host) === 0) return false;
  const canonical = canonicalAddress(host);
  return Object.values(networkInterfaces()).some((addresses) => addresses?.some((entry) => canonicalAddress(entry.address) === canonical));
}

/** An IP address as a URL writes it (IPv6 compressed, lower case), so that two spellings compare equal. */
function canonicalAddress(address: string): string {
  const v6 = isIP(address) === 6;
  try {
    return new URL(`http://${v6 ? `[${address.replace(/%.*$/, "")}]` : address}/`).hostname;
  } catch {
    return address;
  }
}

/**
 * Whether `pid` holds a socket listening on `port` at `address` (or at every address), as Linux
 * shows it in /proc; undefined where the system does not show it (then the /health answer alone
 * decides). False when it cannot be read for that process: a process of another user is not one
 * paysim started.
 */
function listenersOf(pid: number, port: number, address: string): boolean | undefined {
  let tables: string[];
  try {
    tables = ["/proc/net/tcp", "/proc/net/tcp6"].map((path) => readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
  const wanted = new Set(
    tables
      .flatMap((table) => table.split("\n").slice(1))
      .flatMap((line) => {
        const socket = listeningSocket(line);
        return socket !== undefined && socket.port === port && addressMatches(socket.address, address) ? [socket.inode] : [];
      }),
  );
  if (wanted.size === 0) return false;
  let descriptors: string[];
  try {
    descriptors = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return descriptors.some((fd) => {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      return wanted.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? "");
    } catch {
      return false; // closed since the folder was read
    }
  });
}

const WILDCARDS = new Set(["0.0.0.0", "::"]);

/** Whether a socket listening at `listening` receives connections made to `host` (a URL's host, `localhost` included). */
function addressMatches(listening: string, host: string): boolean {
  if (WILDCARDS.has(listening)) return true;
  if (host.toLowerCase() === "localhost") return isLoopbackAddress(listening);
  return listening === canonicalAddress(host);
}

/** One line of /proc/net/tcp or tcp6 when it is a listening socket: its address, port and inode. */
function listeningSocket(line: string): { address: string; port: number; inode: string } | undefined {
  const fields = line.trim().split(/\s+/);
  // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
  if (fields.length < 10 || fields[3] !== "0A") return undefined;
  const [hexAddress, hexPort] = fields[1]!.split(":");
  if (hexAddress === undefined || hexPort === undefined) return undefined;
  return { address: procAddress(hexAddress), port: parseInt(hexPort, 16), inode: fields[9]! };
}

/**
 * An address as /proc writes it (each 32-bit word in the host's byte order, which is little-endian
 * on every machine Node.js runs paysim on) in the form a URL writes it.
 */
function procAddress(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((word) => (word.match(/../g) ?? []).reverse().map((byte) => parseInt(byte, 16)));
  if (bytes.length === 4) return bytes.join(".");
  const mapped = bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return bytes.slice(12).join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return canonicalAddress(groups.join(":"));
}
