import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { serveHttp } from "../examples/gift-server/generated/gift-server/serve.js";
import { giftHandlers } from "./servers/gift.js";
import { startHttpTrace } from "./helpers/trace.js";
const handle = await serveHttp(giftHandlers, { port: 0 });
const proxy = await startHttpTrace(handle.url, "/tmp/trtest/http.jsonl", ["--print"]);
proxy.child.stderr.on("data", (d) => process.stdout.write(d));
console.log(handle.url, proxy.url);
for (const mode of ["legacy", "auto"] as const) {
  const sdk = new Client({ name: "http", version: "1" }, { versionNegotiation: { mode } });
  const transport = new StreamableHTTPClientTransport(new URL(proxy.url));
  await sdk.connect(transport);
  console.log(mode, sdk.getProtocolEra(), transport.sessionId);
  console.log(JSON.stringify(await sdk.callTool({ name: "suggest_gifts", arguments: { occasion: "x", budget: 20 } })).slice(0, 100));
  await new Promise((r) => setTimeout(r, 300));
  await sdk.close();
}
await new Promise((r) => setTimeout(r, 300));
console.log("exit", await proxy.stop());
await handle.close();
