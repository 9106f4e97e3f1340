/**
 * The TCP connections of one HTTP endpoint, counted as they are accepted: at most maxConnections
 * in all and maxConnectionsPerAddress from one address (an IPv4 address, or an IPv6 /64, which one
 * host commonly holds whole), and none that stays silent past firstByteTimeoutMs.
 *
 * A connection past a cap takes the place of an idle one: one that has sent nothing (the oldest
 * first), else one between requests or still sending its headers (past the address's cap, only
 * the address's own). A connection whose request is under way, a standing stream included, is
 * never closed for another; when none is idle, the new connection is closed as soon as it is
 * accepted, with no answer. So connections that send nothing, however many and however often
 * reopened, never keep a client that sends its request from being served, where node's own cap
 * closed the newcomer and kept the idle ones until headersTimeoutMs. nginx reclaims idle
 * keep-alive connections the same way when it runs out.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** The guard's limits (see HttpLimitOptions for their defaults). */
export interface ConnectionLimits {
  readonly maxConnections: number;
  readonly maxConnectionsPerAddress: number;
  readonly firstByteTimeoutMs: number;
}

/** One accepted connection. */
interface Connection {
  readonly socket: Socket;
  readonly address: string;
  /** When it was accepted (ms, the monotonic clock). */
  readonly since: number;
  /** Requests under way on it (their response not yet closed). */
  requests: number;
}

export class ConnectionGuard {
  /** The open connections, in the order they were accepted. */
  private readonly open = new Map<Socket, Connection>();
  private readonly perAddress = new Map<string, number>();
  /** Runs while connections are open: closes those silent past firstByteTimeoutMs. */
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly limits: ConnectionLimits) {}

  /** Guards `server`'s connections (before it listens). */
  attach(server: Server): void {
    server.on("connection", (socket: Socket) => this.accept(socket));
    server.on("request", (req: IncomingMessage, res: ServerResponse) => this.started(req.socket, res));
  }

  /** Connections open now (for tests and monitoring). */
  get size(): number {
    return this.open.size;
  }

  close(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private accept(socket: Socket): void {
    const address = addressKey(socket.remoteAddress);
    const { maxConnections, maxConnectionsPerAddress } = this.limits;
    if ((this.perAddress.get(address) ?? 0) >= maxConnectionsPerAddress && !this.reclaim(address)) return void socket.destroy();
    if (this.open.size >= maxConnections && !this.reclaim(undefined)) return void socket.destroy();
    this.open.set(socket, { socket, address, since: performance.now(), requests: 0 });
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    socket.once("close", () => this.forget(socket));
    if (this.sweeper === undefined) {
      const every = Math.max(10, Math.min(1_000, Math.floor(this.limits.firstByteTimeoutMs / 4)));
      this.sweeper = setInterval(() => this.sweep(), every);
      // The sweep alone never keeps the process alive.
      this.sweeper.unref();
    }
  }

  /** A request's headers have come: its connection is busy until the response closes. */
  private started(socket: Socket, res: ServerResponse): void {
    const connection = this.open.get(socket);
    if (connection === undefined) return;
    connection.requests++;
    res.once("close", () => connection.requests--);
  }

  /**
   * Closes one idle connection (of `address` only, when given) to make room: the oldest that has
   * sent nothing, else the oldest idle one. False when every one has a request under way.
   */
  private reclaim(address: string | undefined): boolean {
    let idle: Connection | undefined;
    for (const connection of this.open.values()) {
      if (connection.requests > 0 || (address !== undefined && connection.address !== address)) continue;
      if (connection.socket.bytesRead === 0) return this.drop(connection);
      idle ??= connection;
    }
    return idle !== undefined && this.drop(idle);
  }

  /** Closes the connections that have sent nothing for firstByteTimeoutMs. */
  private sweep(): void {
    const before = performance.now() - this.limits.firstByteTimeoutMs;
    for (const connection of this.open.values()) {
      // In the order accepted: the rest are younger.
      if (connection.since > before) break;
      if (connection.socket.bytesRead === 0 && connection.requests === 0) this.drop(connection);
    }
    if (this.open.size === 0) this.close();
  }

  private drop(connection: Connection): true {
    this.forget(connection.socket);
    connection.socket.destroy();
    return true;
  }

  private forget(socket: Socket): void {
    const connection = this.open.get(socket);
    if (connection === undefined) return;
    this.open.delete(socket);
    const left = (this.perAddress.get(connection.address) ?? 1) - 1;
    if (left === 0) this.perAddress.delete(connection.address);
    else this.perAddress.set(connection.address, left);
  }
}

/**
 * What connections are counted by: an IPv4 address (written as one, or mapped into IPv6), or the
 * /64 of an IPv6 address (`2001:db8:0:1::/64`); "unknown" when the socket has none (already closed).
 */
export function addressKey(remote: string | undefined): string {
  if (remote === undefined || remote === "") return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote);
  if (mapped) return mapped[1]!;
  if (!remote.includes(":")) return remote;
  // Without its zone (`fe80::1%eth0`), `::` filled with the zero groups it stands for.
  const bare = remote.split("%")[0]!.toLowerCase();
  const [head = "", tail] = bare.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group || "0", 16).toString(16));
  return `${prefix.join(":")}::/64`;
}
