/**
 * Property-based tests (fast-check): random valid manifests generate code that compiles and
 * fixtures equal to the manifest; random mutations of valid manifests end in diagnostics, never in
 * an exception.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { parse, stringify } from "yaml";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/common/diagnostics.js";
import { runPipeline } from "../../src/generator/pipeline.js";
import { linkNodeModules, tempProject } from "../helpers/tmp.js";
import { tsc, writeTsconfig } from "../helpers/tsc.js";
import { propertyParameters } from "../helpers/properties.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const leaf = fc.oneof(
  fc.constant({ type: "string" }),
  fc.constant({ type: "number" }),
  fc.constant({ type: "integer", minimum: 0 }),
  fc.constant({ type: "boolean" }),
  fc.constant({ type: ["string", "null"] }),
  fc.array(fc.string({ maxLength: 8, unit: "binary" }), { minLength: 1, maxLength: 4 }).map((values) => ({ enum: [...new Set(values)] })),
);
const schema: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("object"), tie("array")),
  array: fc.record({ type: fc.constant("array"), items: tie("node") }),
  object: fc
    .dictionary(fc.string({ maxLength: 12, unit: "binary" }), tie("node"), { maxKeys: 4 })
    .chain((properties) => fc.subarray(Object.keys(properties)).map((required) => ({ type: "object", properties, ...(required.length ? { required } : {}) }))),
})).object as fc.Arbitrary<Record<string, unknown>>;

const text = fc.string({ maxLength: 40, unit: "binary" });
const toolName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9._-]{0,24}$/);

const manifest = fc.record({
  server: fc.record({ name: fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/), version: fc.constant("1.0.0"), title: text }),
  tools: fc.uniqueArray(
    fc.record({
      name: toolName,
      description: text,
      inputSchema: schema,
      outputSchema: fc.option(schema, { nil: undefined }),
      _meta: fc.option(fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), { nil: undefined }),
    }),
    { selector: (t) => t.name.toLowerCase(), maxLength: 4 },
  ),
  prompts: fc.uniqueArray(
    fc.record({
      name: toolName,
      description: text,
      arguments: fc.constant([{ name: "who", required: true }]),
      messages: text.map((t) => [{ role: "user", content: { type: "text", text: `${t} {{who}}` } }]),
    }),
    { selector: (p) => p.name.toLowerCase(), maxLength: 2 },
  ),
});

/** Drops undefined fields, as YAML would not write them. */
function clean<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

/** The manifest mutations: each one validated, none may end in an exception. */
const MUTATIONS = propertyParameters(150, 20261202);

describe("property-based", () => {
  it("random valid manifests generate compiling code whose fixtures equal the manifest", async () => {
    const dir = tempProject({ "package.json": '{"type":"module"}' });
    writeTsconfig(dir, { include: ["out"] });
    linkNodeModules(dir);
    let generated = 0;
    await fc.assert(
      fc.asyncProperty(manifest, async (raw) => {
        const value = clean(raw);
        writeFileSync(path.join(dir, "current.yaml"), stringify(value));
        const result = await runPipeline({ manifests: ["current.yaml"], out: "scratch", cwd: dir, mode: "validate", cache: false });
        // Names that collide once turned into identifiers are refused by design: not this property.
        expect(result.diagnostics.filter((d) => d.code !== "identifier-collision")).toEqual([]);
        fc.pre(result.diagnostics.length === 0);
        const name = `${value.server.name}-${generated++}`;
        writeFileSync(path.join(dir, "current.yaml"), stringify({ ...value, server: { ...value.server, name } }));
        const written = await runPipeline({ manifests: ["current.yaml"], out: "out", cwd: dir, mode: "write", cache: false });
        expect(written.diagnostics).toEqual([]);
        const fixture = (f: string) => JSON.parse(readFileSync(path.join(dir, "out", name, "fixtures", f), "utf8"));
        if (value.tools.length) expect(fixture("tools-list.json")).toEqual({ tools: value.tools });
        if (value.prompts.length) expect(fixture("prompts-list.json")).toEqual({ prompts: value.prompts.map(({ messages: _m, ...p }) => p) });
      }),
      propertyParameters(30, 20261202),
    );
    expect(generated).toBeGreaterThan(10);
    expect(tsc(dir)).toEqual({ status: 0, output: "" });
  }, 240_000);

  it("random mutations of valid manifests end in diagnostics, never in an exception", async () => {
    const dir = tempProject({ "package.json": "{}" });
    const bases = ["examples/gift-server/manifests/gift-server.yaml", "manifests/notes-server.yaml", "manifests/conformance.yaml"].map((f) =>
      parse(readFileSync(path.join(ROOT, f), "utf8")),
    );
    const weird = fc.oneof(
      fc.constantFrom(
        null,
        true,
        0,
        -1,
        1e308,
        "",
        "x",
        [],
        {},
        { $ref: "#/defs/Nope" },
        { $ref: "http://x" },
        { type: "object" },
        "a".repeat(5000),
        [[[[]]]],
        { __proto__: 1 },
      ),
      fc.jsonValue({ maxDepth: 3 }),
    );
    const mutation = fc.record({
      base: fc.nat(bases.length - 1),
      steps: fc.array(fc.tuple(fc.nat(), fc.nat(), weird, fc.constantFrom("set", "delete", "rename")), { minLength: 1, maxLength: 4 }),
    });
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(mutation, async ({ base, steps }) => {
        const value = structuredClone(bases[base]);
        for (const [a, b, replacement, op] of steps) mutate(value, a, b, replacement, op);
        writeFileSync(path.join(dir, "m.yaml"), stringify(value));
        const result = await runPipeline({ manifests: ["m.yaml"], out: "out", cwd: dir, mode: "validate", cache: false });
        runs++;
        for (const d of result.diagnostics) checkDiagnostic(d);
      }),
      MUTATIONS,
    );
    expect(runs).toBe(MUTATIONS.numRuns);
  }, 240_000);

  it("random edits of manifest text end in diagnostics, never in an exception", async () => {
    const dir = tempProject({ "package.json": "{}" });
    const source = readFileSync(path.join(ROOT, "manifests/notes-server.yaml"), "utf8");
    await fc.assert(
      fc.asyncProperty(fc.nat(source.length), fc.nat(20), fc.string({ maxLength: 6, unit: "binary" }), async (at, cut, insert) => {
        writeFileSync(path.join(dir, "m.yaml"), source.slice(0, at) + insert + source.slice(at + cut));
        const result = await runPipeline({ manifests: ["m.yaml"], out: "out", cwd: dir, mode: "validate", cache: false });
        for (const d of result.diagnostics) checkDiagnostic(d);
      }),
      propertyParameters(150, 20261202),
    );
  }, 240_000);
});

function checkDiagnostic(d: Diagnostic): void {
  expect(d.file).toBe("m.yaml");
  expect(d.line).toBeGreaterThanOrEqual(1);
  expect(d.col).toBeGreaterThanOrEqual(1);
  expect(d.message.length).toBeGreaterThan(0);
}

/** Sets, deletes or renames the field at a pseudo-random path (chosen by two numbers). */
function mutate(root: unknown, a: number, b: number, replacement: unknown, op: string): void {
  const containers: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (node: unknown) => {
    if (typeof node !== "object" || node === null) return;
    for (const [k, v] of Object.entries(node)) {
      containers.push({ parent: node as Record<string, unknown>, key: Array.isArray(node) ? Number(k) : k });
      walk(v);
    }
  };
  walk(root);
  if (containers.length === 0) return;
  const { parent, key } = containers[(a * 31 + b) % containers.length]!;
  if (op === "delete") {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else if (op === "rename" && !Array.isArray(parent)) {
    const v = parent[key as string];
    delete parent[key as string];
    parent[`${String(key)}${b % 2 ? "s" : "_x"}`] = v;
  } else {
    (parent as Record<string | number, unknown>)[key] = replacement;
  }
}
