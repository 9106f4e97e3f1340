/** What the trace keeps of HTTP headers and paths: credentials never, MCP's headers as sent. */
import { describe, expect, it } from "vitest";
import { redactBody, redactHeaders, redactPath, SessionNames } from "../../../../src/commands/trace/redactLog.js";

describe("redactHeaders", () => {
  it("keeps MCP's headers, redacts credentials, names sessions, leaves the rest out", () => {
    const sessions = new SessionNames();
    expect(
      redactHeaders(
        {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "suggest_gifts",
          "mcp-param-region": "eu",
          "mcp-param-api-key": "k",
          "mcp-session-id": "abc",
          "last-event-id": "12",
          "www-authenticate": 'Bearer resource_metadata="https://x/.well-known/oauth-protected-resource"',
          authorization: "Bearer t",
          cookie: "a=b",
          "set-cookie": ["s=1", "t=2"],
          "x-api-key": "k",
          "proxy-authorization": "Basic x",
          "user-agent": "node",
          host: "127.0.0.1:1",
        },
        sessions,
      ),
    ).toEqual({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "suggest_gifts",
      "mcp-param-region": "eu",
      "mcp-param-api-key": "[redacted]",
      "mcp-session-id": "[redacted session 1]",
      "last-event-id": "12",
      "www-authenticate": 'Bearer resource_metadata="https://x/.well-known/oauth-protected-resource"',
      authorization: "[redacted]",
      cookie: "[redacted]",
      "set-cookie": "[redacted]",
      "x-api-key": "[redacted]",
      "proxy-authorization": "[redacted]",
    });
    expect(redactHeaders({ "mcp-session-id": "def" }, sessions)).toEqual({ "mcp-session-id": "[redacted session 2]" });
    expect(redactHeaders({ "mcp-session-id": "abc" }, sessions)).toEqual({ "mcp-session-id": "[redacted session 1]" });
  });
});

describe("redactPath", () => {
  it.each([
    ["/mcp", "/mcp"],
    ["/mcp?token=abc&x=1", "/mcp?token=...&x=..."],
    ["/v1/sk-abcdefghijklmnop1234/mcp", "/v1/.../mcp"],
  ])("%s", (given, want) => expect(redactPath(given)).toBe(want));
});

describe("redactBody", () => {
  it("redacts credential fields at any depth and in forms, keeps the rest", () => {
    const json = redactBody(
      Buffer.from(JSON.stringify({ access_token: "a", token_type: "Bearer", nested: [{ client_secret: "s", id: 1 }] })),
      "application/json",
    );
    expect(JSON.parse(json.toString())).toEqual({ access_token: "[redacted]", token_type: "Bearer", nested: [{ client_secret: "[redacted]", id: 1 }] });
    expect(redactBody(Buffer.from("code=c&state=s"), "application/x-www-form-urlencoded").toString()).toBe("code=%5Bredacted%5D&state=s");
  });

  it("does not throw on JSON nested too deep to write again: the body is not recorded", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(JSON.parse(redactBody(Buffer.from(deep), "application/json").toString())).toBe("[not recorded: a body nested too deep to redact]");
  });
});
