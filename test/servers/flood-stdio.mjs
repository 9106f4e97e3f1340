// A hand-written MCP server over stdio (2025-11-25, no SDK) whose tools/list is too much, for
// `mcpgen pull` limit tests. FLOOD_MODE:
//   page  one page of FLOOD_TOOLS tools (default 100000, about 15 MB on one line)
//   line  an answer that never ends: stdout written without a newline until the process is killed
//   loop  pages of FLOOD_PAGE_MB MB each (default 20), each with a nextCursor, without end
//   exit  exits with code 7 when asked for tools/list
import { createInterface } from "node:readline";

const mode = process.env.FLOOD_MODE ?? "page";
const answer = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, result })}\n`);
const tool = (name, size) => ({ name, description: "x".repeat(size), inputSchema: { type: "object" } });

function flood() {
  const chunk = `{"jsonrpc":"2.0","id":2,"result":{"tools":[${"x".repeat(65536)}`;
  const pump = () => {
    while (process.stdout.write(chunk));
    process.stdout.once("drain", pump);
  };
  pump();
}

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === "initialize")
    return answer(message.id, { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "flood", version: "1.0.0" } });
  if (message.method === "tools/list") {
    if (mode === "exit") process.exit(7);
    if (mode === "line") return flood();
    if (mode === "loop") {
      const page = Number(message.params?.cursor ?? 0);
      const mb = Number(process.env.FLOOD_PAGE_MB ?? 20);
      return answer(message.id, { tools: Array.from({ length: mb }, (_, i) => tool(`p${page}_${i}`, 1024 * 1024)), nextCursor: String(page + 1) });
    }
    const count = Number(process.env.FLOOD_TOOLS ?? 100000);
    return answer(message.id, { tools: Array.from({ length: count }, (_, i) => tool(`t${i}`, 100)) });
  }
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } })}\n`);
});
