/**
 * What a new user hit (issue 13), each case reproduced first: a required property without a
 * schema, text cut by a comma in a YAML flow mapping, YAML syntax errors that point at the line to
 * fix.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { mcpgen } from "./helpers/cli.js";
import { linkNodeModules, tempProject } from "./helpers/tmp.js";
import { GIFT_WITHOUT_WIDGET } from "./helpers/manifests.js";
import { tsc, writeTsconfig } from "./helpers/tsc.js";

const server = "server: {name: s, version: '1'}\n";

describe("a required property without a schema", () => {
  const manifest = `${server}tools:\n  - name: wipe\n    inputSchema:\n      type: object\n      properties:\n        id: {type: string}\n      required: [id, force]\n`;

  it("is an error at the name in `required`, with the fix", () => {
    const dir = tempProject({ "manifests/s.yaml": manifest });
    const r = mcpgen(["validate"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(
      "manifests/s.yaml:8:22: error required-without-schema: `force` is required but has no schema: a caller can only satisfy it blind, and the generated type says `unknown`; add it under `properties` with its schema (declared: id), or remove it from `required`",
    );
  });

  it("is not flagged on required-only fragments in defs (used through $ref) nor under a property named like a keyword", () => {
    const ok = `${server}defs:\n  NeedsId: {required: [id]}\ntools:\n  - name: t\n    inputSchema:\n      type: object\n      $defs: {Req: {required: [x]}}\n      definitions: {R: {required: [x]}}\n      properties: {x: {type: integer}, id: {type: string}}\n      allOf: [{$ref: '#/$defs/Req'}, {$ref: '#/defs/NeedsId'}]\n  - name: u\n    inputSchema:\n      type: object\n      properties:\n        if: {type: object, properties: {a: {type: string}}, required: [a, b]}\n`;
    const dir = tempProject({ "manifests/s.yaml": ok });
    const r = mcpgen(["validate"], dir);
    // Only the real one: \`b\` under the property named \`if\`.
    expect(
      r.stderr
        .trimEnd()
        .split("\n")
        .map((l) => l.split(": ").slice(0, 2).join(": ")),
    ).toEqual(["manifests/s.yaml:16:75: error required-without-schema", "mcpgen: 1 error; nothing written."]);
  });

  it("is not flagged in composition branches that name the parent's properties, nor with a pattern or additionalProperties schema", () => {
    const ok = `${server}tools:\n  - name: contact\n    inputSchema:\n      type: object\n      properties: {phone: {type: string}, email: {type: string}}\n      anyOf: [{required: [phone]}, {required: [email]}]\n  - name: tags\n    inputSchema: {type: object, patternProperties: {"^t_": {type: string}}, required: [t_main]}\n  - name: extra\n    inputSchema: {type: object, additionalProperties: {type: number}, required: [n]}\n`;
    const dir = tempProject({ "manifests/s.yaml": ok });
    expect(mcpgen(["validate"], dir)).toMatchObject({ code: 0, stderr: "" });
  });

  it("in a pulled manifest (a server you do not own) is a warning, and the typed client must send it, as the server requires", () => {
    const dir = tempProject({ "package.json": '{"type":"module"}', "manifests/s.yaml": `# Pulled by mcpgen from \`x\` (MCP 2025-11-25).\n${manifest}` });
    const r = mcpgen(["generate", "--client-only"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("warning required-without-schema: `force` is required but has no schema");
    expect(readFileSync(path.join(dir, "generated/s/types.ts"), "utf8")).toContain("export interface WipeInput {\n  id: string;\n  force: unknown;\n}");
    // Without `force`, the call does not compile: types and the server's validator agree.
    linkNodeModules(dir);
    writeFileSync(
      path.join(dir, "use.ts"),
      'import type { WipeInput } from "./generated/s/index.js";\nexport const bad: WipeInput = { id: "1" };\nexport const good: WipeInput = { id: "1", force: true };\n',
    );
    writeTsconfig(dir, { include: ["use.ts"], compilerOptions: { types: [], skipLibCheck: false } });
    const compiled = tsc(dir);
    expect(compiled.status).not.toBe(0);
    expect(compiled.output).toMatch(
      /^use\.ts\(2,14\): error TS2741: Property 'force' is missing in type '\{ id: string; \}' but required in type 'WipeInput'\./,
    );
  }, 60_000);
});

describe("text cut by a comma in a YAML flow mapping", () => {
  it("warns at the null keyword it made, with the quoted text to write", () => {
    const dir = tempProject({
      "manifests/s.yaml": `${server}tools:\n  - name: when\n    inputSchema:\n      type: object\n      properties:\n        date: {type: string, description: ISO date, YYYY-MM-DD.}\n  - {name: b, description: Does b, and more., inputSchema: {type: object}}\n`,
    });
    const r = mcpgen(["validate"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      'manifests/s.yaml:7:53: warning suspicious-key: `YYYY-MM-DD.` is a key without a value (null); it would be served as a keyword. If it is the end of the text before it, cut at a comma in a flow mapping `{...}`, quote that text: description: "ISO date, YYYY-MM-DD."',
      'manifests/s.yaml:8:36: warning unknown-field: field `and more.` in a tool is not one mcpgen knows; it is served as it is (known fields: name, title, description, inputSchema, outputSchema, annotations, execution, icons, _meta, examples, widget, visibility, scopes, auth, enabled, tags, securitySchemes). It looks like text: if it is the end of the text before it, cut at a comma in a flow mapping `{...}`, quote that text: description: "Does b, and more."',
    ]);
  });

  it("does not warn on null where JSON Schema allows it (const, default), on x- extensions, nor on keywords (their values are the meta-schema's)", () => {
    const dir = tempProject({
      "manifests/s.yaml": `${server}tools:\n  - name: n\n    inputSchema:\n      type: object\n      properties:\n        a: {const: null, x-hint.: 1, x-none: null}\n        b: {type: [string, "null"], default: null}\n`,
    });
    expect(mcpgen(["validate"], dir)).toMatchObject({ code: 0, stderr: "" });
    const bad = tempProject({ "manifests/s.yaml": `${server}tools:\n  - name: n\n    inputSchema:\n      type: object\n      properties: null\n` });
    expect(mcpgen(["validate"], bad).stderr).not.toContain("suspicious-key");
  });

  it("warns on keys written bare anywhere else in a manifest (_meta, a default, a prompt message), once each", () => {
    const dir = tempProject({
      "manifests/s.yaml": `${server}tools:\n  - name: t\n    inputSchema:\n      type: object\n      properties:\n        tone: {type: object, default: {style: warm, kind}}\n    _meta: {note: hello, world}\nprompts:\n  - name: p\n    messages:\n      - {role: user, content: {type: text, text: Hello, world!}}\n`,
    });
    const r = mcpgen(["validate"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      'manifests/s.yaml:7:53: warning suspicious-key: `kind` is a key written without a value (null): YAML made it from text. If it is the end of the text before it, cut at a comma in a flow mapping `{...}`, quote that text: style: "warm, kind"',
      'manifests/s.yaml:8:26: warning suspicious-key: `world` is a key written without a value (null): YAML made it from text. If it is the end of the text before it, cut at a comma in a flow mapping `{...}`, quote that text: note: "hello, world"',
      'manifests/s.yaml:12:57: warning unknown-field: field `world!` in "text" content is not one mcpgen knows; it is served as it is (known fields: type, text, annotations, _meta). It looks like text: if it is the end of the text before it, cut at a comma in a flow mapping `{...}`, quote that text: text: "Hello, world!"',
    ]);
  });

  it("does not warn on null written as null (`name: null`, `name:`) in data", () => {
    const dir = tempProject({
      "manifests/s.yaml": `${server}tools:\n  - name: t\n    inputSchema: {type: object, properties: {name: {type: [string, "null"]}}}\n    _meta:\n      a: null\n      b:\n      c: {d: ~}\n    examples:\n      - arguments: {name: null}\n`,
    });
    expect(mcpgen(["validate"], dir)).toMatchObject({ code: 0, stderr: "" });
  });

  it("counts its warnings on a run that skips the unchanged manifest (printed in full when it was read)", () => {
    const dir = tempProject({
      "package.json": "{}",
      "manifests/s.yaml": `${server}tools:\n  - name: when\n    inputSchema: {type: object, properties: {d: {type: string, description: ISO date, YYYY-MM-DD.}}}\n`,
    });
    linkNodeModules(dir);
    const first = mcpgen(["generate"], dir);
    expect(first.stderr).toContain("warning suspicious-key");
    const second = mcpgen(["generate"], dir);
    expect(second.stdout).toMatch(/0 written/);
    expect(second.stderr).toBe("mcpgen: 1 warning in 1 unchanged manifest, printed when it was last read; run mcpgen lint to list it.\n");
  });
});

describe("tool examples hold only the keys their schemas declare", () => {
  const tool = (example: string, output = "{type: object, properties: {greeting: {type: string}}, required: [greeting]}") =>
    `${server}defs:\n  Lang: {type: object, properties: {code: {type: string}}}\ntools:\n  - name: greet\n    inputSchema: {type: object, properties: {name: {type: string}, language: {$ref: '#/defs/Lang'}}, required: [name]}\n    outputSchema: ${output}\n    examples:\n      - ${example}\n`;

  it("a result cut at a comma (the old starter's `{greeting: Hello, Ada!}`) is an error with the quoted text to write", () => {
    const r = mcpgen(["validate"], tempProject({ "manifests/s.yaml": tool("{arguments: {name: Ada}, result: {greeting: Hello, Ada!}}") }));
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      'manifests/s.yaml:9:60: error invalid-example: example result key `Ada!` is not declared by outputSchema: the generated types have no such field, so no typed caller could read it; if it is the end of the text before it, cut at a comma in a flow mapping `{...}`, quote that text: greeting: "Hello, Ada!"',
      "mcpgen: 1 error; nothing written.",
    ]);
  });

  it("an undeclared argument, at any depth and through $ref, is an error with its did-you-mean", () => {
    const r = mcpgen(
      ["validate"],
      tempProject({ "manifests/s.yaml": tool("{arguments: {name: Ada, langauge: fr, language: {code: fr, cdoe: x}}, result: {greeting: hi}}") }),
    );
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      "manifests/s.yaml:9:33: error invalid-example: example arguments key `langauge` is not declared by inputSchema: the generated types have no such field, so no typed caller could send it; did you mean `language`?",
      "manifests/s.yaml:9:68: error invalid-example: example arguments key `cdoe` is not declared by inputSchema: the generated types have no such field, so no typed caller could send it; did you mean `code`?",
      "mcpgen: 2 errors; nothing written.",
    ]);
  });

  it("keys an object's schema admits another way (additionalProperties, patternProperties, composition) are not flagged", () => {
    for (const output of [
      "{type: object, properties: {greeting: {type: string}}, additionalProperties: true}",
      "{type: object, properties: {greeting: {type: string}}, additionalProperties: {type: string}}",
      '{type: object, properties: {greeting: {type: string}}, patternProperties: {"^x": {}}}',
      "{type: object, properties: {greeting: {type: string}}, anyOf: [{required: [greeting]}, {required: [extra]}]}",
    ]) {
      const r = mcpgen(["validate"], tempProject({ "manifests/s.yaml": tool("{arguments: {name: Ada}, result: {greeting: hi, extra: yes}}", output) }));
      expect(r, output).toMatchObject({ code: 0, stderr: "" });
    }
  });
});

describe("YAML syntax errors name the line to fix and the usual cause", () => {
  const cases: [string, string, string][] = [
    [
      "an unquoted `: ` in a value",
      `${server}tools:\n  - name: a\n    description: Note: this is bad\n    inputSchema: {type: object}\n`,
      'm.yaml:4:18: error yaml-syntax: YAML syntax error: Nested mappings are not allowed in compact mappings: a value holding `: ` must be quoted: description: "Note: this is bad"',
    ],
    [
      "a line indented under a key that has a value",
      "server:\n  name: s\n   version: '1'\n",
      "m.yaml:3:4: error yaml-syntax: YAML syntax error: Nested mappings are not allowed in compact mappings: this line is indented under `name:` (line 2), which already has a value; align it with that key, or move the value to its own lines",
    ],
    [
      "a tab",
      "server:\n\tname: s\n",
      "m.yaml:2:1: error yaml-syntax: YAML syntax error: Tabs are not allowed as indentation: indent with spaces, not tabs: 2 spaces, under `server:` (line 1)",
    ],
    [
      "an unclosed quote, several lines up",
      `${server}tools:\n  - name: a\n    description: "unclosed\n    inputSchema: {type: object}\n\n`,
      'm.yaml:4:18: error yaml-syntax: YAML syntax error: Missing closing "quote: the quote opened on line 4 is not closed',
    ],
  ];
  cases.push(
    [
      "a line aligned with no key (under-indented)",
      `${server}tools:\n  - name: a\n    inputSchema:\n      type: object\n     properties: {a: {type: string}}\n`,
      "m.yaml:6:6: error yaml-syntax: YAML syntax error: All mapping items must start at the same column: this line is indented 5 spaces; its siblings are indented 6 (line 5): indent it 6 spaces",
    ],
    [
      "a key under a list item indented one space short",
      `${server}tools:\n  - name: a\n   description: x\n`,
      "m.yaml:4:4: error yaml-syntax: YAML syntax error: Sequence item without - indicator: this line is indented 3 spaces: the keys of the list item on line 3 are indented 4, so align it with them; a new item at 2 starts with `- `",
    ],
    [
      "an unclosed single quote after a double quote inside single quotes",
      `${server}tools:\n  - name: a\n    description: 'say "hi'\n    title: 'unclosed\n    inputSchema: {type: object}\n`,
      "m.yaml:5:12: error yaml-syntax: YAML syntax error: Missing closing 'quote: the quote opened on line 5 is not closed",
    ],
    [
      "quotes in a block scalar do not count",
      `${server}tools:\n  - name: a\n    description: |\n      a "quote\n    title: "open\n    inputSchema: {type: object}\n`,
      'm.yaml:6:12: error yaml-syntax: YAML syntax error: Missing closing "quote: the quote opened on line 6 is not closed',
    ],
    [
      "an unclosed flow mapping",
      `${server}tools:\n  - name: a\n    inputSchema: {type: object, properties: {b: 1}\n  - name: b\n`,
      "m.yaml:4:18: error yaml-syntax: YAML syntax error: Flow map in block collection must be sufficiently indented and end with a }: the `{` opened on line 4 is not closed",
    ],
    [
      "CRLF line endings",
      "server:\r\n  name: s\r\n   version: '1'\r\n",
      "m.yaml:3:4: error yaml-syntax: YAML syntax error: Nested mappings are not allowed in compact mappings: this line is indented under `name:` (line 2), which already has a value; align it with that key, or move the value to its own lines",
    ],
  );
  it.each(cases)("%s", (_name, text, want) => {
    const dir = tempProject({ "m.yaml": text });
    const r = mcpgen(["validate", "m.yaml"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(want);
  });
});

describe("one indentation slip is one error, on the line that slipped", () => {
  // The library server of the issue: a nested object, a tool after it.
  const library = [
    "server:",
    "  name: library",
    "  version: 1.0.0",
    "",
    "tools:",
    "  - name: addBook",
    "    description: Add a book",
    "    inputSchema:",
    "      type: object",
    "      properties:",
    "        title:",
    "          type: string",
    "        author:",
    "          type: object",
    "          properties:",
    "            name:",
    "              type: string",
    "            born:",
    "              type: integer",
    "      required: [title]",
    "  - name: findBook",
    "    description: Find a book",
    "    inputSchema:",
    "      type: object",
    "      properties:",
    "        query: {type: string}",
    "      required: [query]",
    "",
  ];
  const slip = (line: number, to: string) => library.map((l, i) => (i === line - 1 ? to + l.trimStart() : l)).join("\n");
  const errorsOf = (text: string) => {
    const r = mcpgen(["validate", "m.yaml"], tempProject({ "m.yaml": text }));
    expect(r.code).toBe(1);
    return r.stderr.trimEnd().split("\n");
  };
  const at = "YAML syntax error: All mapping items must start at the same column:";

  it.each([
    // The first key of a block one space deeper than the others: the parser notices on the next line.
    [9, "       ", `m.yaml:9:8: error yaml-syntax: ${at} this line is indented 7 spaces; its siblings are indented 6 (line 10): indent it 6 spaces`],
    [
      16,
      "             ",
      `m.yaml:16:14: error yaml-syntax: ${at} this line is indented 13 spaces; its siblings are indented 12 (line 18): indent it 12 spaces`,
    ],
    // A key one space off, between two levels: the level whose keys are of its kind.
    [13, "         ", `m.yaml:13:10: error yaml-syntax: ${at} this line is indented 9 spaces; its siblings are indented 8 (line 11): indent it 8 spaces`],
    [18, "           ", `m.yaml:18:12: error yaml-syntax: ${at} this line is indented 11 spaces; its siblings are indented 12 (line 16): indent it 12 spaces`],
    [20, "       ", `m.yaml:20:8: error yaml-syntax: ${at} this line is indented 7 spaces; its siblings are indented 6 (line 10): indent it 6 spaces`],
    [20, "     ", `m.yaml:20:6: error yaml-syntax: ${at} this line is indented 5 spaces; its siblings are indented 6 (line 10): indent it 6 spaces`],
  ])("line %i indented %j", (line, indent, want) => {
    expect(errorsOf(slip(line, indent))).toEqual([want, "mcpgen: 1 error; nothing written."]);
  });

  it.each([
    [9, "\t    ", 6, "as its siblings (line 10)"],
    [13, "\t      ", 8, "as its siblings (line 11)"],
    [18, "\t          ", 12, "as its siblings (line 16)"],
    [22, "\t  ", 4, "as its siblings (line 23)"],
  ])("a tab on line %i: one error, with the spaces to use", (line, indent, spaces, siblings) => {
    expect(errorsOf(slip(line, indent))).toEqual([
      `m.yaml:${line}:1: error yaml-syntax: YAML syntax error: Tabs are not allowed as indentation: indent with spaces, not tabs: ${spaces} spaces, ${siblings}`,
      "mcpgen: 1 error; nothing written.",
    ]);
  });

  it("two slips are two errors, and an error of another kind after them is still reported", () => {
    const lines = slip(9, "       ").split("\n");
    lines[17] = "\t" + lines[17]!.slice(2);
    lines[21] = '    description: "Find a book';
    expect(errorsOf(lines.join("\n"))).toEqual([
      `m.yaml:9:8: error yaml-syntax: ${at} this line is indented 7 spaces; its siblings are indented 6 (line 10): indent it 6 spaces`,
      "m.yaml:18:1: error yaml-syntax: YAML syntax error: Tabs are not allowed as indentation: indent with spaces, not tabs: 12 spaces, as its siblings (line 16)",
      'm.yaml:22:18: error yaml-syntax: YAML syntax error: Missing closing "quote: the quote opened on line 22 is not closed',
      "mcpgen: 3 errors; nothing written.",
    ]);
  });

  it("a block over 256 KiB is not searched (each trial would parse it again): the parser's error with its hint", () => {
    const lines = ["server: {name: s, version: '1'}", "tools:", "  - name: t", "    inputSchema:", "      type: object", "      properties:"];
    for (let i = 0; i < 60; i++) lines.push(`        p${i}: {type: string, description: ${"a".repeat(5000)}}`);
    lines[30] = ` ${lines[30]!}`;
    expect(errorsOf(lines.join("\n"))).toEqual([
      `m.yaml:31:10: error yaml-syntax: ${at} this line is indented 9 spaces, which aligns it with no key around it; the nearest are indented 8: align it with its siblings`,
      "mcpgen: 1 error; nothing written.",
    ]);
  });

  it("a slip that would hide a line in a block scalar is not taken for the fix", () => {
    const text = `${server}tools:\n  - name: a\n    description: |\n      Two lines\n      of text\n     title: A\n    inputSchema: {type: object}\n`;
    expect(errorsOf(text)[0]).toBe(
      "m.yaml:7:6: error yaml-syntax: YAML syntax error: All mapping items must start at the same column: this line is indented 5 spaces; its siblings are indented 4 (line 8): indent it 4 spaces",
    );
  });
});

describe("handler stubs and the incremental records", () => {
  const GIFT = GIFT_WITHOUT_WIDGET;

  it("generated files are never called stubs, even with the output folder inside the stubs folder", () => {
    const dir = tempProject({ "package.json": "{}", "manifests/gift-server.yaml": GIFT });
    const r = mcpgen(["generate", "--stubs", "src", "--out", "src/generated"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split("\n")).toEqual([
      'mcpgen: created src/gift-server/tools/suggestGifts.ts: a handler to write (it throws "not implemented" until you do)',
      'mcpgen: created src/gift-server/tools/giftDetails.ts: a handler to write (it throws "not implemented" until you do)',
      `mcpgen: 1 server -> src/generated/: 20 written, 0 unchanged.`,
    ]);
  });

  it("a handler renamed in its stub is seen by the next run (no --no-cache needed), and generate names what it adds", () => {
    const dir = tempProject({ "package.json": "{}", "manifests/gift-server.yaml": GIFT });
    // node_modules makes the run records exist (they live in node_modules/.cache/mcpgen).
    linkNodeModules(dir);
    const first = mcpgen(["generate", "--stubs", "src/handlers"], dir);
    expect(first.stdout.split("\n")[0]).toBe(
      'mcpgen: created src/handlers/gift-server/tools/suggestGifts.ts: a handler to write (it throws "not implemented" until you do)',
    );
    expect(mcpgen(["generate", "--stubs", "src/handlers"], dir).stdout).toBe(`mcpgen: 1 server -> generated/: 0 written, 18 unchanged.\n`);
    const stub = path.join(dir, "src/handlers/gift-server/tools/suggestGifts.ts");
    writeFileSync(stub, readFileSync(stub, "utf8").replace("export const suggestGifts:", "export const suggestGiftIdeas:"));
    const check = mcpgen(["generate", "--check", "--stubs", "src/handlers"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(
      /^src\/handlers\/gift-server\/tools\/suggestGifts\.ts:\d+:1: error stale-output: stale \(out of date\); run mcpgen generate --stubs src\/handlers$/m,
    );
    const again = mcpgen(["generate", "--stubs", "src/handlers"], dir);
    expect(again.stdout.split("\n")[0]).toBe(
      "mcpgen: added a handler to src/handlers/gift-server/tools/suggestGifts.ts (its export was renamed or removed): write it, or move your code into it",
    );
    expect(readFileSync(stub, "utf8")).toContain('export const suggestGifts: ToolHandler<"suggest_gifts"> = async (_args, _ctx) => {');
    // A new file in the stub folder is an orphan warning, on a run that would otherwise skip the manifest.
    writeFileSync(path.join(dir, "src/handlers/gift-server/tools/old.ts"), "export {};\n");
    expect(mcpgen(["generate", "--stubs", "src/handlers"], dir).stderr).toContain("warning stub-orphan: handler tools/old.ts is not used");
  }, 60_000);
});

describe("independent problems are all reported in one run", () => {
  it("a duplicate name or a typo does not hide an invalid schema elsewhere (or in the same tool), and the duplicate names the other line", () => {
    const text = `${server}tools:\n  - name: a\n    inputSchema: {type: object, properties: {n: {type: integr}}}\n  - name: b\n    inputSchema: {type: object}\n  - name: b\n    inputSchema: {type: object, properties: {m: {minimum: "x"}}}\n  - name: c\n    inputSchema: {type: object, properties: {m: {type: strin}}}\n    descripton: c\nprompts:\n  - name: p\n    messages: [{role: user, content: {type: text, text: "{{nope}}"}}]\n`;
    const dir = tempProject({ "m.yaml": text });
    const r = mcpgen(["validate", "m.yaml"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      'm.yaml:4:56: error invalid-schema: invalid JSON Schema at properties.n.type: must be equal to one of the allowed values ("array", "boolean", "integer", "null", "number", "object", "string"); did you mean "integer"?',
      'm.yaml:7:11: error duplicate-name: duplicate tool name "b": also declared at line 5 (tools[1]); each tool needs a unique name',
      "m.yaml:8:59: error invalid-schema: invalid JSON Schema at properties.m.minimum: must be number",
      'm.yaml:10:56: error invalid-schema: invalid JSON Schema at properties.m.type: must be equal to one of the allowed values ("array", "boolean", "integer", "null", "number", "object", "string"); did you mean "string"?',
      "m.yaml:11:5: error unknown-field: unknown field `descripton` in a tool (did you mean `description`?); allowed: name, title, description, inputSchema, outputSchema, annotations, execution, icons, _meta, examples, widget, visibility, scopes, auth, enabled, tags, securitySchemes",
      'm.yaml:14:57: error unknown-placeholder: placeholder {{nope}} names no argument of prompt "p"; declare it under `arguments:`',
      "mcpgen: 6 errors; nothing written.",
    ]);
  });
});

describe("issue 40, item 2: mis-indented schemas, one slip one error", () => {
  const manifest = `${server}tools:
  - name: add_book
    inputSchema:
      type: object
      properties:
        title: {type: str}
        author:
          type: object
          properties:
            name: {type: string}
          born: {type: integer}
    required: [title]
  - name: untyped
    inputSchema:
      properties:
        q: {type: string}
  - name: find
    inputSchema:
      type: object
      properites:
        q: {type: string}
        n: {type: integer}
      required: [q, n]
  - name: dedented
    inputSchema:
      type: object
      properties:
        a: {type: string}
      b: {type: integer}
      required: [a, b]
`;

  it("a property beside `properties`, a tool-level `required`, `type: str`, no `type`, `properites`: each one error with its fix, none after it", () => {
    const dir = tempProject({ "manifests/s.yaml": manifest });
    const r = mcpgen(["validate"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      'manifests/s.yaml:7:23: error invalid-schema: invalid JSON Schema at properties.title.type: must be equal to one of the allowed values ("array", "boolean", "integer", "null", "number", "object", "string"); did you mean "string"?',
      "manifests/s.yaml:12:11: error misplaced-key: `born` sits beside `properties` of `author` and reads as a property's schema, which no validator or client sees there: indent it under that `properties`",
      "manifests/s.yaml:13:5: error misplaced-key: `required` in a tool is a key of its inputSchema: indent it under `inputSchema:` (here no client or validator reads it, and every input is optional)",
      "manifests/s.yaml:16:7: error schema-not-object: tools[1].inputSchema has no type: add `type: object` (MCP clients reject tool input schemas without it)",
      "manifests/s.yaml:21:7: error keyword-typo: `properites` is not a JSON Schema keyword (did you mean `properties`?): validators and clients ignore it, so it does nothing of what `properties` does; fix the key, or start a key of your own with `x-`",
      "manifests/s.yaml:30:7: error misplaced-key: `b` sits beside `properties` and reads as a property's schema, which no validator or client sees there: indent it under that `properties`",
      "mcpgen: 6 errors; nothing written.",
    ]);
  });

  it("in a pulled manifest the same keys are the upstream server's: warnings, and it builds", () => {
    const pulled = `# Pulled by mcpgen from \`node upstream.js\` (MCP 2025-11-25).\n${server}tools:\n  - name: dedented\n    inputSchema:\n      type: object\n      properties:\n        a: {type: string}\n      b: {type: integer}\n`;
    const dir = tempProject({ "manifests/s.yaml": pulled });
    const r = mcpgen(["validate"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "manifests/s.yaml:9:7: warning misplaced-key: `b` sits beside `properties` and reads as a property's schema, which no validator or client sees there: indent it under that `properties` (the upstream server sends it so: report it there)",
    );
  });
});
