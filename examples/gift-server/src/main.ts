// Starts the gift server: over stdio by default, or over Streamable HTTP on loopback with
// `--http [port]` (http://127.0.0.1:3000/mcp).
import { handlers } from "../generated/gift-server/handlers.js";
import { serveHttp, serveStdio } from "../generated/gift-server/serve.js";

const args = process.argv.slice(2);
const at = args.indexOf("--http");

async function main(): Promise<void> {
  if (at === -1) {
    await serveStdio(handlers);
    return;
  }
  const port = Number(args[at + 1] ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--http takes a port number, not ${JSON.stringify(args[at + 1])}`);
    process.exit(2);
  }
  const { url } = await serveHttp(handlers, { port });
  console.error(`gift-server listening on ${url}`);
}

main().catch((error: unknown) => {
  console.error(`gift-server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
