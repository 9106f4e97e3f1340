/**
 * ReDoS through a schema `pattern`: `^(a+)+$` against "aaaa…!" takes exponential time in a
 * backtracking engine. The generated server checks arguments, and the generated client checks a
 * hostile server's output, in linear time: each answers at once and the next request is served.
 * Every pattern runs with ECMAScript's meaning on mcpgen's own plans, wherever it is in a schema
 * (under `dependencies` too) and in the forms handlers ask for; a pattern runs only once the
 * schema's length keywords hold, and never on text past the cap; resource URI templates match in
 * linear time too.
 */
import { RE2JS } from "re2js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { definitionValue } from "../../src/generator/model/definition.js";
import { ManifestClient } from "../../packages/runtime/src/client/client.js";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { OutputValidationError } from "../../packages/runtime/src/shared/errors.js";
import { createManifestServerFactory, type ServerOptions, type ToolContext } from "../helpers/runtime.js";
import { connectInMemory, ERAS } from "../helpers/connect.js";
import { modelOf } from "../helpers/model.js";

const MANIFEST = `
server: {name: redos, version: 1.0.0}
tools:
  - name: word
    inputSchema:
      type: object
      properties:
        word: {type: string, pattern: "^(a+)+$"}
        tags: {type: array, items: {type: string, pattern: "^(\\\\w+\\\\s?)*$"}}
      patternProperties:
        "^(b+)+$": {type: number}
  - name: shout
    inputSchema: {type: object}
    outputSchema:
      type: object
      properties: {text: {type: string, pattern: "^(a|a)*$"}}
      required: [text]
`;

/** Tens of seconds to ages for a backtracking engine; one call each here. */
const EVIL_A = "a".repeat(5000) + "!";
const EVIL_B = "b".repeat(5000) + "!";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function definition(): Promise<ServerDefinition> {
  return definitionValue(await modelOf(MANIFEST)) as unknown as ServerDefinition;
}

describe("patterns run in linear time", () => {
  it("the definition carries a linear-time plan for every pattern of the tools' schemas", async () => {
    const def = await definition();
    expect(Object.keys(def.patterns ?? {}).sort()).toEqual(["^(a+)+$", "^(a|a)*$", "^(b+)+$", "^(\\w+\\s?)*$"].sort());
    for (const plan of Object.values(def.patterns ?? {})) expect(plan).not.toHaveProperty("unchecked");
  });

  for (const era of ERAS) {
    it(`${era}: a hostile argument is refused at once and the server keeps serving`, async () => {
      const def = await definition();
      const factory = createManifestServerFactory(def, { tools: { word: () => "ok", shout: () => ({ text: "aaa" }) } } as never, { onError: () => {} });
      const { sdk, close } = await connectInMemory(factory, { era });
      closers.push(close);
      const refused = await sdk.callTool({ name: "word", arguments: { word: EVIL_A, tags: ["word ".repeat(2000) + "!"] } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain("Property 'word' must match pattern");
      expect(JSON.stringify(refused.content)).toContain("Property 'tags[0]' must match pattern");
      // A key tested against patternProperties is matched in linear time too (it does not match: no constraint).
      expect((await sdk.callTool({ name: "word", arguments: { [EVIL_B]: "not a number" } })).isError).toBeFalsy();
      expect((await sdk.callTool({ name: "word", arguments: { bbb: "not a number" } })).isError).toBe(true);
      expect(await sdk.callTool({ name: "word", arguments: { word: "aaaa" } })).toMatchObject({ content: [{ type: "text", text: "ok" }] });
      expect((await sdk.listTools()).tools).toHaveLength(2);
    });
  }

  it("the generated client refuses a hostile server's output at once", async () => {
    const def = await definition();
    // The server's own definition of `shout` has no outputSchema: it sends whatever the handler returns.
    const { outputSchema: _, ...bare } = def.tools[1]!;
    const serverDef: ServerDefinition = { ...def, tools: [def.tools[0]!, bare] };
    const factory = createManifestServerFactory(serverDef, {
      tools: { word: () => "ok", shout: () => ({ content: [{ type: "text", text: "x" }], structuredContent: { text: EVIL_A } }) },
    } as never);
    for (const era of ERAS) {
      const { sdk, close } = await connectInMemory(factory, { era });
      closers.push(close);
      const client = new ManifestClient(sdk, def);
      const error = await client.callToolOutput("shout", {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutputValidationError);
      expect(String((error as Error).message)).toContain("must match pattern");
      // Its cap on the text a pattern on RE2JS is given: the output fails untested.
      const capped = new ManifestClient(sdk, def, { maxPatternInputLength: 1000 });
      const tooLong = await capped.callToolOutput("shout", {}).catch((e: unknown) => e);
      expect(String((tooLong as Error).message)).toContain('must NOT have more than 1000 characters to be checked against pattern "^(a|a)*$"');
    }
    expect(() => new ManifestClient({} as never, def, { maxPatternInputLength: -1 })).toThrow("maxPatternInputLength must be a positive whole number, not -1");
  });
});

/** Patterns under `dependencies` (applied by ajv in both dialects, missed by the planner before). */
const DEPENDENT = `
server: {name: deps, version: 1.0.0}
tools:
  - name: dep
    inputSchema:
      type: object
      properties: {trigger: {type: string}, one: {type: string}, look: {type: string}}
      dependencies:
        trigger:
          properties:
            one: {pattern: "^.$"}
            look: {pattern: "(?<=a)b"}
  - name: dep07
    inputSchema:
      $schema: http://json-schema.org/draft-07/schema#
      type: object
      dependencies:
        trigger: {properties: {one: {type: string, pattern: "^.$"}}}
`;

async function dependentServer() {
  const def = definitionValue(await modelOf(DEPENDENT)) as unknown as ServerDefinition;
  return { def, factory: createManifestServerFactory(def, { tools: { dep: () => "ok", dep07: () => "ok" } } as never, { onError: () => {} }) };
}

describe("patterns under every keyword ajv applies, with ECMAScript's meaning", () => {
  it("the definition plans the patterns under `dependencies`", async () => {
    const { def } = await dependentServer();
    expect(def.patterns).toMatchObject({ "^.$": { regexp: true }, "(?<=a)b": { re2: expect.any(String), lookbehind: true } });
  });

  it("a pattern under `dependencies` that cannot run in linear time is refused at generate time, at its line and column", async () => {
    const manifest = DEPENDENT.replace('look: {pattern: "(?<=a)b"}', 'look: {pattern: "^(a)\\\\1$"}');
    await expect(modelOf(manifest)).rejects.toThrow(
      'm.yaml:12:29: error pattern-unsupported: pattern "^(a)\\\\1$" cannot run in linear time: a backreference (\\1)',
    );
  });

  for (const era of ERAS) {
    it(`${era}: "\\r" and "\\u2028" do not match ^.$, and (?<=a)b runs (it was -32603 on every call)`, async () => {
      const { sdk, close } = await connectInMemory((await dependentServer()).factory, { era });
      closers.push(close);
      for (const tool of ["dep", "dep07"])
        for (const one of ["\r", "\u2028", "\n", "ab"]) {
          const refused = await sdk.callTool({ name: tool, arguments: { trigger: "x", one } });
          expect(refused, `${tool} ${JSON.stringify(one)}`).toMatchObject({
            isError: true,
            content: [{ text: `Invalid arguments for tool ${tool}: Property 'one' must match pattern "^.$"` }],
          });
        }
      expect(await sdk.callTool({ name: "dep", arguments: { trigger: "x", one: "é", look: "ab" } })).toMatchObject({ content: [{ text: "ok" }] });
      expect(await sdk.callTool({ name: "dep07", arguments: { trigger: "x", one: "😀" } })).toMatchObject({ content: [{ text: "ok" }] });
      expect(await sdk.callTool({ name: "dep", arguments: { trigger: "x", look: "cb" } })).toMatchObject({
        isError: true,
        content: [{ text: `Invalid arguments for tool dep: Property 'look' must match pattern "(?<=a)b"` }],
      });
      // Without the property that triggers them, the dependent patterns do not apply.
      expect(await sdk.callTool({ name: "dep", arguments: { one: "\r" } })).toMatchObject({ content: [{ text: "ok" }] });
    });
  }
});

/** A tool whose handler asks for a form built anew on every call (as handlers do). */
const FORMS = `
server: {name: forms, version: 1.0.0}
tools:
  - {name: ask, inputSchema: {type: object, properties: {pattern: {type: string}}, required: [pattern]}}
`;

async function formServer() {
  const def = definitionValue(await modelOf(FORMS)) as unknown as ServerDefinition;
  const ask = async ({ pattern }: { pattern: string }, ctx: ToolContext) => {
    const answer = await ctx.elicit({
      message: "Code?",
      requestedSchema: { type: "object", properties: { code: { type: "string", pattern }, tag: { type: "string", pattern: "(?<=a)b" } }, required: ["code"] },
    });
    return JSON.stringify(answer.content);
  };
  return createManifestServerFactory(def, { tools: { ask } } as never, { onError: () => {} });
}

describe("the forms handlers ask for (elicitation)", () => {
  for (const era of ERAS) {
    it(`${era}: an answer is checked with ECMAScript's meaning on mcpgen's plans; a form that cannot be checked is refused before it is asked`, async () => {
      let answer: Record<string, string> = {};
      let asked = 0;
      const { sdk, close } = await connectInMemory(await formServer(), {
        era,
        capabilities: { elicitation: {} },
        setup: (client) =>
          client.setRequestHandler("elicitation/create", async () => {
            asked++;
            return { action: "accept", content: answer };
          }),
      });
      closers.push(close);
      const call = () => sdk.callTool({ name: "ask", arguments: { pattern: "^.$" } }).catch((error: unknown) => error);

      answer = { code: "é", tag: "ab" };
      expect(await call()).toMatchObject({ content: [{ text: '{"code":"é","tag":"ab"}' }] });
      for (const bad of [{ code: "\r" }, { code: "\u2028" }, { code: "x", tag: "cb" }] as Record<string, string>[]) {
        answer = bad;
        const refused = await call();
        const text = refused instanceof Error ? `${(refused as Error & { code: number }).code} ${refused.message}` : JSON.stringify(refused);
        // 2025: the handler's elicit rejects (an isError result); 2026-07-28: -32602 for the retry.
        expect(text, JSON.stringify(bad)).toMatch(era === "legacy" ? /"isError":true/ : /^-32602 /);
        expect(text).toMatch(/must match pattern/);
      }

      // A backreference cannot run in linear time: the handler's elicit rejects, the client is never asked.
      asked = 0;
      const refused = await sdk.callTool({ name: "ask", arguments: { pattern: "^(a)\\1$" } });
      expect(asked).toBe(0);
      expect(refused).toMatchObject({
        isError: true,
        content: [
          {
            text: 'Tool ask failed: elicitation/create: the requestedSchema cannot be checked: pattern "^(a)\\\\1$" cannot be checked in linear time: a backreference (\\1)',
          },
        ],
      });
      answer = { code: "z" };
      expect(await call()).toMatchObject({ content: [{ text: '{"code":"z"}' }] });
    });
  }
});

/** Pulled: mcpgen refuses \`(?<=\\w{0,1000}x)y\` without maxLength in a manifest written here (pattern-cost). */
const LONG = `# Pulled by mcpgen from \`node upstream.js\` (MCP 2025-11-25).
server: {name: long, version: 1.0.0}
tools:
  - name: short
    inputSchema:
      type: object
      properties:
        text: {type: string, maxLength: 64, pattern: "(?<=\\\\w{0,1000}x)y"}
        code: {type: string, minLength: 3, pattern: "(?<=a)b"}
  - name: open
    inputSchema:
      type: object
      properties:
        text: {type: string, pattern: "(?<=\\\\w{0,1000}x)y"}
        texts: {type: array, items: {type: string, pattern: "(?<=\\\\w{0,1000}x)y"}}
        not: {type: string, pattern: "(?<![ab]{1,500})c"}
        id: {type: string, pattern: "^[a-z]*$"}
      patternProperties:
        "(?<=\\\\w{0,1000}x)y": {type: number}
`;

async function longServer(options: ServerOptions = {}) {
  const def = definitionValue(await modelOf(LONG)) as unknown as ServerDefinition;
  const factory = createManifestServerFactory(def, { tools: { short: () => "ok", open: () => "ok" } } as never, { onError: () => {}, ...options });
  const { sdk, close } = await connectInMemory(factory, { era: "modern" });
  closers.push(close);
  return sdk;
}

describe("a pattern runs only once the length keywords hold, and never on text past the cap", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("maxLength: 64 and a 256 KiB string: the length error, the pattern engine never called (18.6 s before)", async () => {
    const sdk = await longServer();
    const engine = vi.spyOn(RE2JS.prototype, "test");
    expect(await sdk.callTool({ name: "short", arguments: { text: "xy" } })).toMatchObject({ content: [{ text: "ok" }] });
    expect(engine).toHaveBeenCalled();
    engine.mockClear();
    const refused = await sdk.callTool({ name: "short", arguments: { text: "y".repeat(256 * 1024) } });
    expect(refused).toMatchObject({
      isError: true,
      content: [{ text: "Invalid arguments for tool short: Property 'text' must NOT have more than 64 characters" }],
    });
    expect(await sdk.callTool({ name: "short", arguments: { code: "b" } })).toMatchObject({
      isError: true,
      content: [{ text: "Invalid arguments for tool short: Property 'code' must NOT have fewer than 3 characters" }],
    });
    expect(engine).not.toHaveBeenCalled();
    // Astral characters count once, as maxLength counts them: 64 of them (128 UTF-16 units) are within it.
    expect((await sdk.callTool({ name: "short", arguments: { text: "😀".repeat(63) + "y" } })).content).toEqual([
      { type: "text", text: "Invalid arguments for tool short: Property 'text' must match pattern \"(?<=\\w{0,1000}x)y\"" },
    ]);
    expect(engine).toHaveBeenCalled();
  });

  it("without maxLength, a string past maxPatternInputLength is refused untested; RegExp-proved patterns have no cap", async () => {
    const sdk = await longServer({ maxPatternInputLength: 1000 });
    const engine = vi.spyOn(RE2JS.prototype, "test");
    // The longest text the pattern engine was given.
    const longest = () => Math.max(0, ...engine.mock.calls.map(([text]) => String(text).length));
    expect(await sdk.callTool({ name: "open", arguments: { text: "a".repeat(998) + "xy" } })).toMatchObject({ content: [{ text: "ok" }] });
    expect(longest()).toBe(1000);
    engine.mockClear();
    expect(await sdk.callTool({ name: "open", arguments: { text: "a".repeat(999) + "xy" } })).toMatchObject({
      isError: true,
      content: [
        {
          text: "Invalid arguments for tool open: Property 'text' must NOT have more than 1000 characters to be checked against pattern \"(?<=\\w{0,1000}x)y\"",
        },
      ],
    });
    // A property name tested against patternProperties: the whole check ends with the limit.
    expect(await sdk.callTool({ name: "open", arguments: { ["a".repeat(1000) + "y"]: 1 } })).toMatchObject({
      isError: true,
      content: [{ text: "Invalid arguments for tool open: A string is longer than 1000 characters, the most a pattern is checked against" }],
    });
    // Only property names ("text") were tested against patternProperties: nothing past the cap.
    expect(longest()).toBeLessThan(1000);
    expect(await sdk.callTool({ name: "open", arguments: { id: "a".repeat(100_000) } })).toMatchObject({ content: [{ text: "ok" }] });
  });

  it("the cap is a positive whole number", async () => {
    await expect(longServer({ maxPatternInputLength: 0 })).rejects.toThrow("maxPatternInputLength must be a positive whole number, not 0");
    await expect(longServer({ maxPatternMs: 1.5 })).rejects.toThrow("maxPatternMs must be a positive whole number, not 1.5");
  });

  it("a string whose check would not fit in maxPatternMs is refused untested, and one value's strings share the time (1.8 to 4.5 s per call before)", async () => {
    const sdk = await longServer();
    const engine = vi.spyOn(RE2JS.prototype, "test");
    const overTime = (tool: string) => ({
      isError: true,
      content: [
        {
          type: "text",
          text: `Invalid arguments for tool ${tool}: A string was not checked against its pattern: the patterns of this value would take more than 100 ms (maxPatternMs)`,
        },
      ],
    });
    // The red team's strings, just within maxPatternInputLength: refused before the engine runs.
    expect(await sdk.callTool({ name: "open", arguments: { text: "y".repeat(99_999) } })).toMatchObject(overTime("open"));
    expect(await sdk.callTool({ name: "open", arguments: { not: "ac".repeat(49_999) } })).toMatchObject(overTime("open"));
    expect(engine).not.toHaveBeenCalled();
    // A thousand strings of 1,000 characters, each within the time alone: the first few take it all.
    expect(await sdk.callTool({ name: "open", arguments: { texts: Array.from({ length: 1000 }, () => "y".repeat(1000)) } })).toMatchObject(overTime("open"));
    expect(engine.mock.calls.length).toBeGreaterThan(0);
    expect(engine.mock.calls.length).toBeLessThan(100);
    // What the pattern is for still passes: short strings, many of them, and a long one that matches early.
    engine.mockClear();
    const fine = { texts: Array.from({ length: 200 }, (_, i) => `w${i}xy`), text: "xy", not: "c" };
    expect(await sdk.callTool({ name: "open", arguments: fine })).toMatchObject({ content: [{ text: "ok" }] });
    // 202 values, and the three property names tested against patternProperties.
    expect(engine.mock.calls.length).toBe(205);
    // Each call has its own time: the next one is served as the first was.
    expect(await sdk.callTool({ name: "open", arguments: { text: "a".repeat(1500) + "xy" } })).toMatchObject({ content: [{ text: "ok" }] });
  });

  it("the generated client gives a hostile server's output the same time", async () => {
    const def = definitionValue(await modelOf(LONG)) as unknown as ServerDefinition;
    const outputSchema = { type: "object", properties: { text: { type: "string", pattern: "(?<=\\w{0,1000}x)y" } } };
    const clientDef: ServerDefinition = { ...def, tools: def.tools.map((t) => (t.name === "open" ? { ...t, outputSchema } : t)) };
    // The server's own definition has no outputSchema: it sends whatever the handler returns.
    const factory = createManifestServerFactory(def, {
      tools: { short: () => "ok", open: () => ({ content: [{ type: "text", text: "y" }], structuredContent: { text: "y".repeat(99_999) } }) },
    } as never);
    const { sdk, close } = await connectInMemory(factory, { era: "modern" });
    closers.push(close);
    const error = await new ManifestClient(sdk, clientDef).callToolOutput("open", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(String((error as Error).message)).toContain("the patterns of this value would take more than 100 ms (maxPatternMs)");
    expect(() => new ManifestClient({} as never, def, { maxPatternMs: 0 })).toThrow("maxPatternMs must be a positive whole number, not 0");
  });
});

const TEMPLATES = `
server: {name: uris, version: 1.0.0}
resourceTemplates:
  - {uriTemplate: "gift://{a}-{b}-{c}", name: gift}
`;

describe("resource URI templates", () => {
  for (const era of ERAS) {
    it(`${era}: a URI made to backtrack (cubic before: 0.6 s at 2 KB) is answered at once; variables split as before`, async () => {
      const def = definitionValue(await modelOf(TEMPLATES)) as unknown as ServerDefinition;
      const seen: unknown[] = [];
      const factory = createManifestServerFactory(
        def,
        { resourceTemplates: { gift: (variables: Record<string, string>) => (seen.push({ ...variables }), "a gift") } } as never,
        { onError: () => {} },
      );
      const { sdk, close } = await connectInMemory(factory, { era });
      closers.push(close);
      const hostile = "gift://" + "a-".repeat(200_000) + "/";
      await expect(sdk.readResource({ uri: hostile })).rejects.toThrow("Resource not found");
      expect((await sdk.readResource({ uri: "gift://x-y-z-w" })).contents).toEqual([{ uri: "gift://x-y-z-w", text: "a gift" }]);
      expect(seen).toEqual([{ a: "x-y", b: "z", c: "w" }]);
    });
  }
});
