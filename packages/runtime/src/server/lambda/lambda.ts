/**
 * A fetch handler on AWS Lambda: the HTTP events of a function URL and of API Gateway's HTTP API
 * (payload format 2.0, the same shape) translated to a web Request, and the Response back to the
 * result Lambda sends, buffered (Lambda's default invoke mode). Written against the shapes of
 * `@types/aws-lambda` (APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2), restated here so
 * the runtime needs neither those types nor anything of Node.
 *
 * A buffered answer is sent once complete: an SSE answer to a request (a 2025-era POST, a
 * 2026-07-28 call that sends progress) arrives whole, which MCP clients read as well. A standing
 * stream never completes, so the 2025-era GET stream and 2026-07-28 `subscriptions/listen` are
 * refused here with 405 and an error that says why, before they hold the function until its
 * timeout.
 */

/** The HTTP event of a function URL or of an HTTP API (payload 2.0), as Lambda passes it. */
export interface LambdaHttpEvent {
  version?: string;
  rawPath: string;
  rawQueryString: string;
  /** Lower-case names; a repeated header's values joined with commas. */
  headers: Record<string, string | undefined>;
  /** The cookies, which are not in `headers` in payload 2.0. */
  cookies?: string[];
  requestContext: { domainName: string; http: { method: string } };
  body?: string;
  isBase64Encoded: boolean;
}

/** What the handler answers Lambda: a structured result of payload 2.0. */
export interface LambdaHttpResult {
  statusCode: number;
  headers: Record<string, string>;
  /** The Set-Cookie values, which payload 2.0 takes apart from the headers. */
  cookies?: string[];
  body: string;
  isBase64Encoded: boolean;
}

/** Answers a Request: what `createFetchHandler` returns. */
export type RequestHandler = (request: Request) => Promise<Response>;

/** The Lambda handler of a fetch handler: `export const handler = lambdaHandler(createFetchHandler(handlers, { stateless: true, allowedHosts: "any" }))`. */
export function lambdaHandler(handler: RequestHandler): (event: LambdaHttpEvent) => Promise<LambdaHttpResult> {
  return async (event) => {
    const request = toRequest(event);
    const refused = refuseStream(request);
    return fromResponse(refused ?? (await handler(request)));
  };
}

/** The event as a web Request: the URL from the Host (or the domain name), the path and the query; the cookies as a Cookie header. */
function toRequest(event: LambdaHttpEvent): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers)) if (value !== undefined) headers.set(name, value);
  if (event.cookies?.length) headers.set("cookie", event.cookies.join("; "));
  const host = headers.get("host") ?? event.requestContext.domainName;
  const scheme = headers.get("x-forwarded-proto") ?? "https";
  const url = `${scheme}://${host}${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ""}`;
  const method = event.requestContext.http.method.toUpperCase();
  const hasBody = method !== "GET" && method !== "HEAD" && event.body !== undefined;
  return new Request(url, { method, headers, ...(hasBody ? { body: event.isBase64Encoded ? fromBase64(event.body!) : event.body! } : {}) });
}

/** A standing stream, which a buffered answer can never send: 405 with why. */
function refuseStream(request: Request): Response | undefined {
  const listen = request.method === "POST" && request.headers.get("mcp-method") === "subscriptions/listen";
  const stream = request.method === "GET" && (request.headers.get("accept") ?? "").includes("text/event-stream");
  if (!listen && !stream) return undefined;
  const what = listen ? "subscriptions/listen" : "a GET stream";
  const message = `Method Not Allowed: ${what} needs a streamed answer, and this Lambda function answers buffered (notifications reach clients only within a request's own answer)`;
  return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32601, message } }, { status: 405, headers: { allow: "POST, DELETE" } });
}

/** Content types sent as text; any other body goes base64. */
const TEXT = /^(text\/|application\/(json|[\w.+-]+\+json|javascript|xml)\b)/i;

/** The Response as Lambda's result: Set-Cookie values apart, a text body as it is, any other base64. */
async function fromResponse(response: Response): Promise<LambdaHttpResult> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  const type = response.headers.get("content-type") ?? "";
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = bytes.length === 0 || TEXT.test(type);
  return {
    statusCode: response.status,
    headers,
    ...(cookies.length ? { cookies } : {}),
    body: text ? new TextDecoder().decode(bytes) : toBase64(bytes),
    isBase64Encoded: !text,
  };
}

function fromBase64(text: string) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
