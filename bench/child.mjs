// Runs the built mcpgen CLI in this process and reports its peak memory (for bench/run.ts).
import { main } from "../dist/cli/main.js";

const code = await main(process.argv.slice(2));
process.stderr.write(`BENCH ${JSON.stringify({ code, maxRssKb: process.resourceUsage().maxRSS })}\n`);
process.exitCode = code;
