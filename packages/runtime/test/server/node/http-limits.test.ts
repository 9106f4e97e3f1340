/** httpLimits: the defaults of the connection limits, and the settings refused when the server is made. */
import { describe, expect, it } from "vitest";
import { httpLimits, nodeServerOptions } from "../../../src/server/node/httpLimits.js";
import { addressKey } from "../../../src/server/node/connectionGuard.js";

describe("httpLimits", () => {
  it("defaults: 512 connections, 256 per address, 5 s to the first byte, 256 standing streams, 20 s headers, 60 s request, 5 s keep-alive, 5 min idle streams, 60 s stalls", () => {
    expect(httpLimits({})).toEqual({
      maxConnections: 512,
      maxConnectionsPerAddress: 256,
      firstByteTimeoutMs: 5_000,
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 5_000,
      maxStandingStreams: 256,
      standingStreamIdleTimeoutMs: 300_000,
      stalledResponseTimeoutMs: 60_000,
    });
    expect(httpLimits({ maxConnections: 2000 }).maxStandingStreams).toBe(1000);
  });

  it.each([
    [{ maxConnections: 0 }, "maxConnections must be a positive whole number, not 0"],
    [{ requestTimeoutMs: 1.5 }, "requestTimeoutMs must be a positive whole number, not 1.5"],
    [{ headersTimeoutMs: 61_000 }, "headersTimeoutMs (61000) must not be more than requestTimeoutMs (60000): the headers are part of the request"],
    [{ maxStandingStreams: 512 }, "maxStandingStreams (512) must be less than maxConnections (512): requests need connections while the streams hold theirs"],
    [{ maxConnectionsPerAddress: 513 }, "maxConnectionsPerAddress (513) must not be more than maxConnections (512)"],
    [{ firstByteTimeoutMs: -1 }, "firstByteTimeoutMs must be a positive whole number, not -1"],
  ])("refuses %j", (options, message) => {
    expect(() => httpLimits(options)).toThrow(message);
  });

  it("has node check the timeouts every second, or a quarter of the headers timeout when that is less", () => {
    expect(nodeServerOptions(httpLimits({}))).toEqual({
      headersTimeout: 20_000,
      requestTimeout: 60_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 1_000,
    });
    expect(nodeServerOptions(httpLimits({ headersTimeoutMs: 200, requestTimeoutMs: 300 })).connectionsCheckingInterval).toBe(50);
  });
});

describe("addressKey", () => {
  it.each([
    ["192.0.2.7", "192.0.2.7"],
    ["::ffff:192.0.2.7", "192.0.2.7"],
    ["::FFFF:127.0.0.1", "127.0.0.1"],
    // One host commonly holds a whole IPv6 /64: its addresses count as one.
    ["2001:db8:0:1::5", "2001:db8:0:1::/64"],
    ["2001:0db8:0000:0001:ffff:ffff:ffff:ffff", "2001:db8:0:1::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["", "unknown"],
    [undefined, "unknown"],
  ])("%s counts as %s", (remote, key) => {
    expect(addressKey(remote)).toBe(key);
  });
});
