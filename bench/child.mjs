// Runs the built mcpgen CLI in this process and reports its peak memory (for bench/run.ts). The
// report is written at exit, so a command that ends with process.exit (trace over stdio) reports too.
// MCPGEN_BENCH_CLI names another build's dist/cli/main.js (a bench comparing with an older mcpgen).
import { pathToFileURL } from "node:url";

const cli = process.env.MCPGEN_BENCH_CLI ? pathToFileURL(process.env.MCPGEN_BENCH_CLI).href : "../dist/cli/main.js";
const { main } = await import(cli);

process.on("exit", (code) => {
  process.stderr.write(`BENCH ${JSON.stringify({ code, maxRssKb: process.resourceUsage().maxRSS })}\n`);
});
process.exitCode = await main(process.argv.slice(2));
