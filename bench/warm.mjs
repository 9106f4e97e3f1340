// One process regenerating after each edit, as `mcpgen generate --watch` does (without its
// 100 ms debounce): the median time of one changed tool with the pipeline loaded and warm.
// For bench/run.ts; run in a bench project folder.
import { readFileSync, writeFileSync } from "node:fs";
import { runPipeline } from "../dist/generator/pipeline.js";

const options = { manifests: ["manifests"], out: "generated", cwd: process.cwd(), mode: "write" };
await runPipeline(options);
const file = "manifests/server-0.yaml";
const original = readFileSync(file, "utf8");
const times = [];
try {
  for (let i = 0; i < 7; i++) {
    writeFileSync(file, original.replace("Tool number 0.", `Tool number 0 (watch ${i}).`));
    const start = performance.now();
    const result = await runPipeline(options);
    times.push(performance.now() - start);
    if (result.diagnostics.length || result.writeError) throw new Error("the warm run failed");
  }
} finally {
  writeFileSync(file, original);
}
await runPipeline(options);
times.sort((a, b) => a - b);
process.stderr.write(`BENCH ${JSON.stringify({ warmOneChangedMs: times[3] })}\n`);
