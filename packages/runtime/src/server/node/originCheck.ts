/**
 * DNS-rebinding and cross-site protection for a server on this machine: which `Host` and `Origin`
 * headers are this server. A page the developer visits can make the browser send requests to
 * 127.0.0.1 (its `Origin` is the page's), and a name it controls can resolve to 127.0.0.1 (its
 * `Host` is that name): both are refused. Used by the generated servers' HTTP transport and by
 * mcpgen's widget harness.
 */

/** Names of this machine's loopback interface, as they appear in Host and Origin headers. */
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Who a server is: the interface it binds, its port, and what else its options accept. */
export interface OriginRules {
  /** The interface bound (127.0.0.1, ::1, 0.0.0.0, a name). */
  host: string;
  port: number;
  /** Host header values accepted besides this server's own address (e.g. a public name). */
  allowedHosts?: readonly string[] | undefined;
  /** Origin header values accepted besides http(s)://localhost|127.0.0.1|[::1] on this port. */
  allowedOrigins?: readonly string[] | undefined;
}

/** Whether `value` (the Host header) names this server: its address and port, loopback names on a loopback server, or an allowed host. */
export function hostAllowed(value: string | undefined, rules: OriginRules): boolean {
  if (value === undefined) return false;
  const { host, port } = rules;
  const own = [`${host}:${port}`, ...(LOOPBACK.has(host) || host === "0.0.0.0" ? [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`] : [])];
  return own.includes(value.toLowerCase()) || (rules.allowedHosts ?? []).includes(value.toLowerCase());
}

/** Whether `value` (the Origin header) is a page of this server: http(s) on a loopback name and this port, or an allowed origin. */
export function originAllowed(value: string, rules: OriginRules): boolean {
  if ((rules.allowedOrigins ?? []).includes(value)) return true;
  try {
    const o = new URL(value);
    return (
      (o.protocol === "http:" || o.protocol === "https:") && LOOPBACK.has(o.hostname) && Number(o.port || (o.protocol === "https:" ? 443 : 80)) === rules.port
    );
  } catch {
    return false;
  }
}
