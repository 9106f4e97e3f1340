/**
 * The naive baseline: json-schema-to-typescript's compile() once per schema, default options
 * (Prettier formatting on), for every tool of the fixtures in argv[2...].
 */
import { readFileSync } from "node:fs";
import { compile } from "json-schema-to-typescript";

let out = 0;
for (const fixture of process.argv.slice(2)) {
  const { tools } = JSON.parse(readFileSync(fixture, "utf8")) as { tools: { name: string; inputSchema: object; outputSchema?: object }[] };
  for (const tool of tools) {
    out += (await compile(tool.inputSchema as never, `${tool.name}Input`)).length;
    if (tool.outputSchema) out += (await compile(tool.outputSchema as never, `${tool.name}Output`)).length;
  }
}
process.stderr.write(`BENCH ${JSON.stringify({ chars: out })}\n`);
