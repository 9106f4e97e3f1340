/**
 * DNS-rebinding and cross-site protection for a server on this machine: which `Host` and `Origin`
 * headers are this server. A page the developer visits can make the browser send requests to
 * 127.0.0.1 (its `Origin` is the page's), and a name it controls can resolve to 127.0.0.1 (its
 * `Host` is that name): both are refused. Used by the generated servers' HTTP endpoint and by
 * mcpgen's widget harness.
 *
 * A server that knows where it listens (serveHttp on Node) names its address; a fetch handler
 * does not (the platform listens), and takes loopback names on any port as its own, plus the
 * hosts it is told.
 */

/** Names of this machine's loopback interface, as they appear in Host and Origin headers. */
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Who a server is: the interface it binds, its port, and what else its options accept. */
export interface OriginRules {
  /** The interface bound (127.0.0.1, ::1, 0.0.0.0, a name); undefined where the platform listens (a fetch handler). */
  host?: string | undefined;
  /** The port bound, with `host`. */
  port?: number | undefined;
  /**
   * Host header values accepted besides this server's own address (e.g. a public name); `"any"`
   * skips the Host check, for a platform that routes requests by their Host (Cloudflare Workers,
   * a Lambda function URL), where a rebinding name cannot reach the server.
   */
  allowedHosts?: readonly string[] | "any" | undefined;
  /** Origin header values accepted besides http(s)://localhost|127.0.0.1|[::1] on this port. */
  allowedOrigins?: readonly string[] | undefined;
}

/**
 * Whether `value` (the Host header) names this server: its address and port, loopback names on a
 * loopback server (any loopback name and port where the address is not known), or an allowed host.
 */
export function hostAllowed(value: string | undefined, rules: OriginRules): boolean {
  if (rules.allowedHosts === "any") return true;
  if (value === undefined) return false;
  const name = value.toLowerCase();
  if ((rules.allowedHosts ?? []).includes(name)) return true;
  const { host, port } = rules;
  if (host === undefined) return LOOPBACK.has(hostname(name));
  const own = [`${host}:${port}`, ...(LOOPBACK.has(host) || host === "0.0.0.0" ? [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`] : [])];
  return own.includes(name);
}

/**
 * Whether `value` (the Origin header) is a page of this server: an allowed origin, or http(s) on a
 * loopback name and this server's port. Where the port is not known, the port of `hostHeader` (the
 * request's Host) when it is a loopback name, or a page of `hostHeader` itself once that host is
 * allowed (the server's own pages at its public name).
 */
export function originAllowed(value: string, rules: OriginRules, hostHeader?: string): boolean {
  if ((rules.allowedOrigins ?? []).includes(value)) return true;
  let o: URL;
  try {
    o = new URL(value);
  } catch {
    return false;
  }
  if (o.protocol !== "http:" && o.protocol !== "https:") return false;
  const originPort = Number(o.port || (o.protocol === "https:" ? 443 : 80));
  if (rules.port !== undefined) return LOOPBACK.has(o.hostname) && originPort === rules.port;
  if (hostHeader === undefined) return false;
  const host = hostHeader.toLowerCase();
  const hostPort = host.match(/:(\d+)$/)?.[1];
  if (LOOPBACK.has(hostname(host))) return LOOPBACK.has(o.hostname) && originPort === Number(hostPort ?? (o.protocol === "https:" ? 443 : 80));
  return o.host === host && hostAllowed(hostHeader, rules);
}

/** The name of a Host header value, without its port (`[::1]:3000` -> `[::1]`). */
function hostname(host: string): string {
  return host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d*$/, "");
}
