/**
 * auth.introspection against a loopback RFC 7662 endpoint written here (the e2e tests use
 * oidc-provider's): HTTP Basic with the form-encoded id and secret, active and audience checks,
 * and an endpoint that fails or is slow answering 500, not 401.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { introspectionVerifier } from "../../../src/server/auth/introspection.js";
import { authContextOf } from "../../../src/server/engine/authInfo.js";

const RESOURCE = "https://gifts.example.test/mcp";
let endpoint: string;
const seen: { authorization: string | undefined; body: string }[] = [];
let answer: { status: number; body: unknown } | "hang" = { status: 200, body: {} };
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (d) => (body += d));
  req.on("end", () => {
    seen.push({ authorization: req.headers.authorization, body });
    if (answer === "hang") return;
    res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A timeout far above a loaded machine's answer time, except where the test makes the endpoint hang. */
const verifier = (timeoutMs = 10_000) =>
  introspectionVerifier({
    endpoint,
    clientId: "mcp rs",
    clientSecret: "s3cr:t",
    resource: RESOURCE,
    resourceMetadataUrl: "https://gifts.example.test/.well-known/oauth-protected-resource/mcp",
    timeoutMs,
    clockSkewSeconds: 30,
  });

describe("auth.introspection", () => {
  it("posts the token with Basic auth and maps an active answer to ctx.auth", async () => {
    const exp = Math.floor(Date.now() / 1000) + 300;
    answer = { status: 200, body: { active: true, aud: [RESOURCE, "other"], sub: "alice", client_id: "app", scope: "gifts.read", exp } };
    const info = await verifier()("opaque-1");
    expect(authContextOf(info)).toEqual({
      subject: "alice",
      clientId: "app",
      scopes: ["gifts.read"],
      expiresAt: exp,
      claims: { active: true, aud: [RESOURCE, "other"], sub: "alice", client_id: "app", scope: "gifts.read", exp },
    });
    const last = seen.at(-1)!;
    expect(last.authorization).toBe(`Basic ${btoa("mcp+rs:s3cr%3At")}`);
    expect(Object.fromEntries(new URLSearchParams(last.body))).toEqual({ token: "opaque-1", token_type_hint: "access_token" });
  });

  it.each([
    ["inactive", { active: false }, "invalid_token", /not active/],
    ["for another resource", { active: true, aud: "https://other.example.test/mcp", client_id: "app" }, "invalid_token", /not issued for this resource/],
    ["without aud", { active: true, client_id: "app" }, "invalid_token", /not issued for this resource/],
  ])("refuses a token %s with 401", async (_, body, code, message) => {
    answer = { status: 200, body };
    await expect(verifier()("t")).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
  });

  it("answers server_error (500) when the endpoint fails, answers non-JSON, or is too slow", async () => {
    answer = { status: 401, body: { error: "invalid_client" } };
    await expect(verifier()("t")).rejects.toMatchObject({ code: "server_error" });
    answer = { status: 200, body: "active" };
    await expect(verifier()("t")).rejects.toMatchObject({ code: "server_error" });
    answer = "hang";
    await expect(verifier(300)("t")).rejects.toMatchObject({ code: "server_error", message: expect.stringMatching(/introspect/) });
  });
});
