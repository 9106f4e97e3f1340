/**
 * How much of the machine one HTTP endpoint lets its clients hold, and for how long: connections
 * (a file descriptor each), the time to send a request, idle keep-alive connections, responses
 * nobody reads, and the standing streams (a 2025 session's GET stream, a 2026-07-28
 * `subscriptions/listen`) that would otherwise each hold a connection for as long as their client
 * likes. Node's own defaults suit a server behind a proxy that enforces these; a server that faces
 * clients directly needs them here.
 */
import type { ServerOptions as NodeServerOptions } from "node:http";
import { positiveOption } from "../engine/options.js";
import type { EndpointOptions } from "../http/endpoint.js";

/** The connection limits of `serveHttp`, each with its default (docs/reference/limits.md). */
export interface HttpLimitOptions {
  /**
   * TCP connections open at once (default 512, well inside the common limit of 1,024 file
   * descriptors). Past it, a new connection takes the place of an idle one (one that has sent
   * nothing first, then one between requests); when every one has a request under way, the new
   * one is closed as soon as it is accepted: the client sees the connection reset, with no HTTP
   * answer (connectionGuard.ts).
   */
  maxConnections?: number;
  /**
   * TCP connections open at once from one address: an IPv4 address, or an IPv6 /64 (default half
   * of `maxConnections`: 256). Past it, a new connection from that address takes the place of one
   * of its own idle ones, else it is closed as soon as accepted. Behind a reverse proxy or a load
   * balancer every client comes from its address: set this to `maxConnections` there (and limit
   * clients at the proxy).
   */
  maxConnectionsPerAddress?: number;
  /**
   * Time a new connection has to send its first byte (default 5 seconds, as long as an idle
   * keep-alive connection is kept). Past it the connection is closed, with no answer; one that has
   * started its request has headersTimeoutMs for the rest.
   */
  firstByteTimeoutMs?: number;
  /**
   * Time a client has to send a request's headers, from its connection or its previous request
   * (default 20 seconds). Past it: 408 Request Timeout and the connection closed. A connection that
   * sends nothing at all is closed the same way.
   */
  headersTimeoutMs?: number;
  /**
   * Time a client has to send a whole request, headers and body (default 60 seconds; node's 300 s
   * let a body sent a byte every 20 s hold a connection for 5 minutes). Past it: 408 Request
   * Timeout and the connection closed. The answer is not limited: SSE streams and long calls go on.
   */
  requestTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this long without a new request (default 5 seconds, node's). */
  keepAliveTimeoutMs?: number;
  /**
   * A response its client stops reading: once the connection's buffers are full, the client has
   * this long to read before the connection is closed (default 60 seconds). A 2025 session whose
   * answer nobody reads is then free again.
   */
  stalledResponseTimeoutMs?: number;
}

/** The limits with their defaults applied. */
export interface HttpLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  firstByteTimeoutMs: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxStandingStreams: number;
  standingStreamIdleTimeoutMs: number;
  stalledResponseTimeoutMs: number;
}

/** The limits, checked: each a positive whole number, and the ones that depend on each other consistent (the endpoint's standing streams against the connections). */
export function httpLimits(options: HttpLimitOptions & Pick<EndpointOptions, "maxStandingStreams" | "standingStreamIdleTimeoutMs">): HttpLimits {
  const maxConnections = positiveOption(options.maxConnections, 512, "maxConnections");
  const headersTimeoutMs = positiveOption(options.headersTimeoutMs, 20_000, "headersTimeoutMs");
  const requestTimeoutMs = positiveOption(options.requestTimeoutMs, 60_000, "requestTimeoutMs");
  const maxStandingStreams = positiveOption(options.maxStandingStreams, Math.floor(maxConnections / 2), "maxStandingStreams");
  if (headersTimeoutMs > requestTimeoutMs)
    throw new RangeError(
      `headersTimeoutMs (${headersTimeoutMs}) must not be more than requestTimeoutMs (${requestTimeoutMs}): the headers are part of the request`,
    );
  const maxConnectionsPerAddress = positiveOption(options.maxConnectionsPerAddress, Math.max(1, Math.floor(maxConnections / 2)), "maxConnectionsPerAddress");
  if (maxConnectionsPerAddress > maxConnections)
    throw new RangeError(`maxConnectionsPerAddress (${maxConnectionsPerAddress}) must not be more than maxConnections (${maxConnections})`);
  if (maxStandingStreams >= maxConnections)
    throw new RangeError(
      `maxStandingStreams (${maxStandingStreams}) must be less than maxConnections (${maxConnections}): requests need connections while the streams hold theirs`,
    );
  return {
    maxConnections,
    maxConnectionsPerAddress,
    firstByteTimeoutMs: positiveOption(options.firstByteTimeoutMs, 5_000, "firstByteTimeoutMs"),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: positiveOption(options.keepAliveTimeoutMs, 5_000, "keepAliveTimeoutMs"),
    maxStandingStreams,
    standingStreamIdleTimeoutMs: positiveOption(options.standingStreamIdleTimeoutMs, 5 * 60_000, "standingStreamIdleTimeoutMs"),
    stalledResponseTimeoutMs: positiveOption(options.stalledResponseTimeoutMs, 60_000, "stalledResponseTimeoutMs"),
  };
}

/**
 * node's server options for these limits. Node checks the header and request timeouts on a timer
 * (every 30 s by default, so a 20 s limit could hold for 50 s): here every second, or a quarter of
 * the shorter timeout when that is less.
 */
export function nodeServerOptions(limits: HttpLimits): NodeServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}
