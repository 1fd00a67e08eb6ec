/**
 * What counts as this machine's own loopback: the one definition behind "listening on loopback"
 * (which turns on the DNS-rebinding defence and keeps the start banner quiet) and the Host names
 * that defence lets through.
 */

const LOOPBACK_ADDRESS = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|::1|\[::1\])$/i;

/**
 * Whether an address to listen on is loopback only: 127.0.0.0/8, ::1 or localhost.
 *
 * @example
 * isLoopbackAddress("127.0.0.2") // true
 * isLoopbackAddress("0.0.0.0")   // false
 */
export function isLoopbackAddress(host: string): boolean {
  return LOOPBACK_ADDRESS.test(host);
}

/** The names docs/api.md lets through on loopback, whatever loopback address paysim listens on. */
const DOCUMENTED_LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The Host names (without port, lower case, IPv6 in brackets) a paysim listening on `listenHost`
 * answers: undefined when it listens beyond loopback (no Host rule then). Besides the three documented ones (docs/api.md),
 * the address it listens on itself, so that `--host 127.0.0.2` is reachable at its own URL; an
 * address is no DNS name, so it cannot be rebound.
 *
 * @example
 * loopbackHostNames("127.0.0.2") // Set { "localhost", "127.0.0.1", "[::1]", "127.0.0.2" }
 * loopbackHostNames("0.0.0.0")   // undefined
 */
export function loopbackHostNames(listenHost: string): ReadonlySet<string> | undefined {
  if (!isLoopbackAddress(listenHost)) return undefined;
  const own = listenHost.toLowerCase() === "::1" ? "[::1]" : listenHost.toLowerCase();
  return new Set([...DOCUMENTED_LOOPBACK_NAMES, own]);
}
