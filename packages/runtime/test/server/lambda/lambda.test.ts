/**
 * lambdaHandler: the fetch handler of a server invoked as Lambda invokes it, with the events AWS
 * documents (`@types/aws-lambda`: a function URL's LambdaFunctionURLEvent, an HTTP API's
 * APIGatewayProxyEventV2) and its structured results. The SDK v2 Client speaks to it through a
 * `fetch` that turns each request into such an event, as a function URL does, in both eras.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, LambdaFunctionURLEvent, LambdaFunctionURLResult } from "aws-lambda";
import { afterEach, describe, expect, it } from "vitest";
import { createFetchHandlerWith, type FetchHandler } from "../../../src/server/http/index.js";
import { lambdaHandler, type LambdaHttpEvent } from "../../../src/server/lambda/index.js";
import type { ServerDefinition } from "../../../src/shared/definition.js";
import { createManifestServerFactory } from "../../../../../test/helpers/runtime.js";

const DEFINITION: ServerDefinition = {
  serverInfo: { name: "greeter", version: "1.0.0" },
  capabilities: { tools: {} },
  tools: [{ name: "greet", inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } }],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};

const opened: FetchHandler[] = [];
afterEach(async () => {
  for (const handler of opened.splice(0)) await handler.close();
});

/** The handler a Lambda user exports: stateless 2025 sessions (instances share no memory), any Host (Lambda routes by it). */
function handlerOf() {
  const fetchHandler = createFetchHandlerWith(
    createManifestServerFactory(DEFINITION, { tools: { greet: async ({ name }: { name: string }) => `Hello, ${name}!` } }),
    DEFINITION,
    { stateless: true, allowedHosts: "any" },
  );
  opened.push(fetchHandler);
  return lambdaHandler(fetchHandler);
}

const DOMAIN = "abcdefghij.lambda-url.eu-west-1.on.aws";

/** A Request as a function URL hands it to Lambda (payload 2.0): lower-case headers, cookies apart, a body base64 when asked. */
async function eventOf(request: Request, base64 = false): Promise<LambdaFunctionURLEvent> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (name !== "cookie") headers[name] = value;
  });
  const cookie = request.headers.get("cookie");
  const body = request.body ? await request.text() : undefined;
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookie ? { cookies: cookie.split("; ") } : {}),
    headers: { ...headers, host: DOMAIN, "x-forwarded-proto": "https" },
    requestContext: {
      accountId: "anonymous",
      apiId: "abcdefghij",
      domainName: DOMAIN,
      domainPrefix: "abcdefghij",
      http: { method: request.method, path: url.pathname, protocol: "HTTP/1.1", sourceIp: "203.0.113.7", userAgent: "test" },
      requestId: "c6af9ac6-7b61-11e6-9a41-93e8deadbeef",
      routeKey: "$default",
      stage: "$default",
      time: "07/Dec/2026:15:00:00 +0000",
      timeEpoch: 1796655600000,
    },
    ...(body === undefined ? {} : { body: base64 ? Buffer.from(body).toString("base64") : body }),
    isBase64Encoded: base64 && body !== undefined,
  };
}

/** Lambda's structured result as the Response the client gets. */
function responseOf(result: APIGatewayProxyStructuredResultV2): Response {
  const headers = new Headers(result.headers as Record<string, string>);
  for (const cookie of result.cookies ?? []) headers.append("set-cookie", cookie);
  const body = result.isBase64Encoded ? Buffer.from(result.body ?? "", "base64") : result.body;
  return new Response(result.statusCode === 204 || result.statusCode === 202 ? null : body, { status: result.statusCode ?? 200, headers });
}

describe("lambdaHandler", () => {
  it("has the types of AWS's handlers: function URL and HTTP API events in, payload 2.0 results out", () => {
    const handler = handlerOf();
    const asFunctionUrl: (event: LambdaFunctionURLEvent) => Promise<LambdaFunctionURLResult> = handler;
    const asHttpApi: (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2> = handler;
    expect([asFunctionUrl, asHttpApi]).toEqual([handler, handler]);
  });

  for (const [mode, era] of [
    ["legacy", "legacy"],
    ["auto", "modern"],
  ] as const) {
    it(`serves the SDK v2 Client in the ${era === "modern" ? "2026-07-28" : "2025-11-25"} era through function URL events`, async () => {
      const handler = handlerOf();
      const events: LambdaHttpEvent[] = [];
      const viaLambda = async (input: string | URL | Request, init?: RequestInit) => {
        const event = await eventOf(new Request(input, init), events.length % 2 === 1);
        events.push(event);
        return responseOf(await handler(event));
      };
      const sdk = new Client({ name: "lambda", version: "1" }, { versionNegotiation: { mode } });
      await sdk.connect(new StreamableHTTPClientTransport(new URL(`https://${DOMAIN}/mcp`), { fetch: viaLambda }));
      expect(sdk.getProtocolEra()).toBe(era);
      expect(await sdk.callTool({ name: "greet", arguments: { name: "Ada" } })).toMatchObject({ content: [{ type: "text", text: "Hello, Ada!" }] });
      await sdk.close();
      // Every other event carried its body base64-encoded, as a function URL sends a body it takes for binary.
      expect(events.filter((e) => e.isBase64Encoded).length).toBeGreaterThan(0);
    });
  }

  it("refuses the standing streams a buffered answer cannot send, with 405 and why", async () => {
    const handler = handlerOf();
    const get = await handler(await eventOf(new Request(`https://${DOMAIN}/mcp`, { headers: { accept: "text/event-stream" } })));
    expect(get.statusCode).toBe(405);
    expect(JSON.parse(get.body).error.message).toMatch(/^Method Not Allowed: a GET stream needs a streamed answer/);
    const listen = await handler(
      await eventOf(
        new Request(`https://${DOMAIN}/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", "mcp-method": "subscriptions/listen", "mcp-protocol-version": "2026-07-28" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: {} }),
        }),
      ),
    );
    expect([listen.statusCode, listen.headers["allow"]]).toEqual([405, "POST, DELETE"]);
  });

  it("passes the query and the cookies on, and gives Set-Cookie back as payload 2.0's cookies", async () => {
    let seen: Request | undefined;
    const handler = lambdaHandler(async (request) => {
      seen = request;
      const answer = new Response(new Uint8Array([0, 1, 2, 255]), { headers: { "content-type": "application/octet-stream" } });
      answer.headers.append("set-cookie", "a=1; Path=/");
      answer.headers.append("set-cookie", "b=2; Path=/");
      return answer;
    });
    const event = await eventOf(new Request(`https://${DOMAIN}/mcp?x=1&y=2`, { headers: { cookie: "s=abc; t=def" } }));
    const result = await handler(event);
    expect(seen!.url).toBe(`https://${DOMAIN}/mcp?x=1&y=2`);
    expect(seen!.headers.get("cookie")).toBe("s=abc; t=def");
    expect(result).toMatchObject({ statusCode: 200, cookies: ["a=1; Path=/", "b=2; Path=/"], isBase64Encoded: true, body: "AAEC/w==" });
    expect(result.headers).not.toHaveProperty("set-cookie");
  });
});
