/**
 * What running schema patterns in linear time costs: tools/call throughput of the generated server
 * for 100 synthetic tools whose schemas have `pattern`s in arguments and output (an id, dates, a
 * Unicode name, an item id: on RegExp, which mcpgen proves linear for them; tags with a group and
 * zod's email with its lookaheads: on RE2JS), with the generated runtime as it is
 * (packages/runtime/src/shared/patterns.ts) and with its one option that hands ajv the pattern
 * engine taken out (ajv's default: JavaScript's backtracking RegExp for every pattern, what the
 * runtime did before), the same compiled code otherwise, in rotating rounds in one process, both
 * protocol eras. Then the cost of one check of a long string (maxLength beside a costly lookbehind;
 * the cap on the text a pattern on RE2JS is given). Prints a BENCH line (calls per second, the
 * median round; milliseconds) and a summary; `npm run bench` runs it too, `npm run bench:patterns`
 * alone.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { callsPerSecond, rotatingRounds, type Factory } from "./measure.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { planPattern } from "../packages/runtime/src/server/engine/patternPlans.js";
import { DEFAULT_MAX_PATTERN_INPUT, DEFAULT_MAX_PATTERN_MS, patternEngine } from "../packages/runtime/src/shared/patterns.js";
import { AJV_OPTIONS, createAjv } from "../packages/runtime/src/shared/ajv.js";
import { runValidator } from "../packages/runtime/src/shared/validation.js";
import { manifests } from "./synthetic.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIR = path.join(ROOT, ".cache", "bench", "patterns");
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const CALLS = Number(process.argv[2] ?? 3000);
const ROUNDS = Number(process.argv[3] ?? 5);
/** The string of the attack (item 12 of issue 27: 256 KiB blocked the event loop 18.6 s). */
const ATTACK_KIB = 256;

rmSync(DIR, { recursive: true, force: true });
mkdirSync(path.join(DIR, "manifests"), { recursive: true });
mkdirSync(path.join(DIR, "node_modules"));
for (const entry of readdirSync(path.join(ROOT, "node_modules")))
  if (!entry.startsWith(".")) symlinkSync(path.join(ROOT, "node_modules", entry), path.join(DIR, "node_modules", entry), "dir");
writeFileSync(path.join(DIR, "package.json"), '{ "type": "module" }\n');
for (const [name, text] of manifests(100, 100, 42, true)) writeFileSync(path.join(DIR, "manifests", name), text);
execFileSync(process.execPath, [path.join(ROOT, "dist/cli/bin.js"), "generate", "--quiet", "--no-cache", "--runtime", "vendor"], {
  cwd: DIR,
  stdio: "inherit",
});
writeFileSync(
  path.join(DIR, "tsconfig.json"),
  JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      skipLibCheck: true,
      types: ["node"],
      rootDir: "generated",
      outDir: "linear",
    },
    include: ["generated"],
  }),
);
execFileSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: DIR, stdio: "inherit" });

// The backtracking build: the same JavaScript, ajv left with its default RegExp and pattern keyword.
cpSync(path.join(DIR, "linear"), path.join(DIR, "backtracking"), { recursive: true });
const validation = path.join(DIR, "backtracking", "_runtime", "shared", "validation.js");
const engineOption = /,\s*code: \{ regExp: engine \}/;
const lengthFirst = /\s*ajv\.removeKeyword\("pattern"\);\s*ajv\.addKeyword\(lengthFirstPattern\);/;
const source = readFileSync(validation, "utf8");
if (!engineOption.test(source) || !lengthFirst.test(source))
  throw new Error(`bench/patterns.ts: ${validation} no longer hands ajv its engine and keyword as this bench expects; update the bench`);
writeFileSync(validation, source.replace(engineOption, "").replace(lengthFirst, ""));

const tools = (
  JSON.parse(readFileSync(path.join(DIR, "generated", "bench-0", "fixtures", "tools-list.json"), "utf8")) as { tools: { name: string }[] }
).tools.map((t) => t.name);
const args = {
  id: "x1",
  limit: 10,
  status: "open",
  note: null,
  filter: { from: "2026-01-01", to: "2026-02-01", tags: ["a", "b-c"] },
  address: { city: "Saint-Étienne", country: "FR" },
};
const output = {
  items: [{ id: "a1", name: "A", amount: 1, status: "open", owner: { name: "Ann", email: "ann@example.com", address: { city: "Zürich" } } }],
  total: 1,
  next: null,
};
const handlers = { tools: Object.fromEntries(tools.map((name) => [name, () => output])) };

const factories: Record<string, Factory> = {};
for (const build of ["linear", "backtracking"] as const) {
  const generated = (await import(pathToFileURL(path.join(DIR, build, "bench-0", "index.js")).href)) as { createServerFactory(h: unknown): Factory };
  factories[build] = generated.createServerFactory(handlers);
}
const out: Record<string, number> = await rotatingRounds(factories, ROUNDS, (factory, era) => callsPerSecond(factory, era, tools, args, CALLS));
for (const era of ["legacy", "modern"]) out[`ratio.${era}`] = out[`linear.${era}`]! / out[`backtracking.${era}`]!;
Object.assign(out, lengthFirst_());
process.stderr.write(`BENCH ${JSON.stringify(out)}\n`);
const pct = (r: number) => `${r >= 1 ? "+" : ""}${((r - 1) * 100).toFixed(1)}%`;
process.stdout.write(
  `schema patterns (100 tools; ids, dates, names on RegExp proved linear, tags and zod's email on RE2JS): calls/s now / all on backtracking RegExp (before), median of ${ROUNDS} rounds of ${CALLS}: ` +
    `2025 era ${out["linear.legacy"]!.toFixed(0)} / ${out["backtracking.legacy"]!.toFixed(0)} (${pct(out["ratio.legacy"]!)}), ` +
    `2026-07-28 ${out["linear.modern"]!.toFixed(0)} / ${out["backtracking.modern"]!.toFixed(0)} (${pct(out["ratio.modern"]!)})\n`,
);
process.stdout.write(
  `maxLength: 64 beside (?<=\\w{0,1000}x)y, a ${ATTACK_KIB} KiB string: checked in ${out["attack.now.ms"]!.toFixed(1)} ms now (the length error, the pattern not run) / ${out["attack.before.ms"]!.toFixed(0)} ms with ajv's own pattern keyword (the pattern run anyway); ` +
    `no maxLength: ${out["cap.over.ms"]!.toFixed(1)} ms past the cap of ${DEFAULT_MAX_PATTERN_INPUT.toLocaleString("en-US")} characters, ${out["cap.at.ms"]!.toFixed(0)} ms for a string of that length without maxPatternMs, ${out["cap.plain.ms"]!.toFixed(1)} ms for ^(\\w+\\s?)*$ on it\n`,
);
process.stdout.write(
  `maxPatternMs (${DEFAULT_MAX_PATTERN_MS} ms per value): that string refused in ${out["budget.at.ms"]!.toFixed(1)} ms; 1,000 strings of 1,000 characters refused in ${out["budget.many.ms"]!.toFixed(0)} ms (${out["budget.many.unbounded.ms"]!.toFixed(0)} ms without it); 200 short strings checked in ${out["budget.fine.ms"]!.toFixed(1)} ms\n`,
);

/**
 * Item 12 of issue 27: with allErrors a pattern ran after maxLength had refused the string. One
 * validation of the attack, now and with ajv's own pattern keyword (the same engine, no cap),
 * then what the cap bounds: the same pattern without maxLength, past the cap and just within it,
 * and a pattern without counted repetition at the cap. Then what maxPatternMs bounds (issue 39):
 * that string, and a thousand strings each within the time alone, checked as the server checks
 * a value (runValidator), and short strings that pass. In this process, one run each (seconds).
 */
function lengthFirst_(): Record<string, number> {
  const schema = (extra: object) => ({ type: "object", properties: { text: { type: "string", pattern: "(?<=\\w{0,1000}x)y", ...extra } } });
  const time = (validate: (value: unknown) => boolean, value: unknown) => {
    const started = performance.now();
    validate(value);
    return performance.now() - started;
  };
  const attack = { text: "y".repeat(ATTACK_KIB * 1024) };
  const now = createAjv(false, planPattern);
  const before = new Ajv2020({ ...AJV_OPTIONS, code: { regExp: patternEngine(planPattern, { maxInput: Infinity }) } });
  const atCap = "y".repeat(DEFAULT_MAX_PATTERN_INPUT);
  const plain = createAjv(false, planPattern).compile({ type: "string", pattern: "^(\\w+\\s?)*$" });
  const many = createAjv(false, planPattern).compile({ type: "array", items: { type: "string", pattern: "(?<=\\w{0,1000}x)y" } });
  const thousand = Array.from({ length: 1000 }, () => "y".repeat(1000));
  const open = now.compile(schema({}));
  return {
    "budget.at.ms": time((value) => runValidator(open, value) === undefined, { text: atCap }),
    "budget.many.ms": time((value) => runValidator(many, value) === undefined, thousand),
    "budget.many.unbounded.ms": time(many, thousand),
    "budget.fine.ms": time(
      (value) => runValidator(many, value) === undefined,
      Array.from({ length: 200 }, (_, i) => `w${i}xy`),
    ),
    "attack.now.ms": time(now.compile(schema({ maxLength: 64 })), attack),
    "attack.before.ms": time(before.compile(schema({ maxLength: 64 })), attack),
    "cap.over.ms": time(now.compile(schema({})), { text: atCap + "y" }),
    "cap.at.ms": time(now.compile(schema({})), { text: atCap }),
    "cap.plain.ms": time(plain, "word ".repeat(DEFAULT_MAX_PATTERN_INPUT / 5 - 1) + "!"),
  };
}
