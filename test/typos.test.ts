/**
 * What a new user hit (issue 28, items 2, 5 and 6), each case reproduced first: JSON Schema keyword
 * typos that validated and linted clean while changing the contract; transposed MCP field names
 * (`titel`, `nmae`) that were warnings where `descritpion` was an error; a duplicate name that hid
 * an identifier collision until the next run. Every diagnostic is asserted whole.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { mcpgen } from "./helpers/cli.js";
import { tempProject } from "./helpers/tmp.js";

const PULLED = "# Pulled by mcpgen from `node server.js` (MCP 2025-11-25).\n";
const TOOL_FIELDS =
  "name, title, description, inputSchema, outputSchema, annotations, execution, icons, _meta, examples, widget, visibility, scopes, auth, enabled, tags, securitySchemes";

/** The error for a key `key` at line:col that is a typo of the keyword `near`. */
const typo = (at: string, key: string, near: string) =>
  `m.yaml:${at}: error keyword-typo: \`${key}\` is not a JSON Schema keyword (did you mean \`${near}\`?): validators and clients ignore it, so it does nothing of what \`${near}\` does; fix the key, or start a key of your own with \`x-\``;

/** stderr as lines, without the final count. */
const lines = (stderr: string) =>
  stderr
    .trimEnd()
    .split("\n")
    .filter((l) => !l.startsWith("mcpgen: "));

describe("JSON Schema keyword typos (item 2)", () => {
  // The issue's manifest: `properites`, `minLenght` and `requried` made the tool accept nothing and
  // `name` optional, and validate and lint said nothing.
  const issue = `server: {name: s, version: '1'}
tools:
  - name: add_user
    inputSchema:
      type: object
      properites: {name: {type: string, minLenght: 1}}
      requried: [name]
`;

  it("the issue's manifest: each typo is an error with its did-you-mean, the one inside the misspelt `properties` too, and nothing is written", () => {
    const dir = tempProject({ "m.yaml": issue });
    const r = mcpgen(["generate", "m.yaml"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      typo("6:7", "properites", "properties"),
      typo("6:41", "minLenght", "minLength"),
      typo("7:7", "requried", "required"),
      "mcpgen: 3 errors; nothing written.",
    ]);
    // lint validates first: it is not clean either.
    const lint = mcpgen(["lint", "m.yaml"], dir);
    expect(lint.code).toBe(1);
    expect(lines(lint.stderr)).toEqual(lines(r.stderr));
  });

  it("no config turns the error off; in a pulled manifest the warning can be", () => {
    const config = JSON.stringify({ diagnostics: { "keyword-typo": "off" } });
    const written = tempProject({ "m.yaml": issue, "mcpgen.config.json": config });
    expect(lines(mcpgen(["validate", "m.yaml"], written).stderr)).toEqual([
      typo("6:7", "properites", "properties"),
      typo("6:41", "minLenght", "minLength"),
      typo("7:7", "requried", "required"),
    ]);
    const pulled = tempProject({ "m.yaml": `${PULLED}${issue}`, "mcpgen.config.json": config });
    expect(mcpgen(["validate", "m.yaml"], pulled)).toMatchObject({ code: 0, stderr: "" });
  });

  it("in every schema and at any depth: defs, inputSchema, outputSchema, items, anyOf, a draft-07 schema, an x-mcp extension", () => {
    const text = `server: {name: s, version: '1'}
defs:
  Money:
    type: object
    properties: {amount: {type: number, minimun: 0}}
tools:
  - name: add_user
    inputSchema:
      type: object
      properties:
        tags: {type: array, itmes: {type: string}}
    outputSchema:
      type: object
      properties:
        id: {anyOf: [{type: string}, {tpye: integer}]}
        meta: {type: object, additionalproperties: false}
  - name: legacy
    inputSchema:
      $schema: http://json-schema.org/draft-07/schema#
      type: object
      properties:
        who: {type: string, x-mcp-heder: Who}
      defintions: {Old: {type: string}}
`;
    const dir = tempProject({ "m.yaml": text });
    const r = mcpgen(["validate", "m.yaml"], dir);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      typo("5:41", "minimun", "minimum"),
      typo("11:29", "itmes", "items"),
      typo("15:39", "tpye", "type"),
      typo("16:30", "additionalproperties", "additionalProperties"),
      "m.yaml:22:29: error keyword-typo: `x-mcp-heder` is not an extension mcpgen reads (did you mean `x-mcp-header`?): it would be ignored; fix the key",
      typo("23:7", "defintions", "definitions"),
    ]);
  });

  it("names are data, not keywords: property names, def names and values of enum, const, default and examples are never typos; nor are $comment, x- keys and either dialect's locations", () => {
    const text = `server: {name: s, version: '1'}
defs:
  requried: {type: string}
tools:
  - name: t
    inputSchema:
      $schema: http://json-schema.org/draft-07/schema#
      type: object
      $comment: $defs in draft-07 is a location a $ref reaches
      $defs: {Day: {type: string}}
      properties:
        requried: {type: boolean, default: {tpye: 1}}
        titel: {$ref: '#/$defs/Day', x-note: a note, x-api-header: h}
        minLenght: {enum: [{properites: 1}], const: {itmes: 2}, examples: [{requried: 3}]}
  - name: u
    inputSchema:
      type: object
      definitions: {Old: {type: string}}
      properties: {o: {$ref: '#/definitions/Old'}, r: {$ref: '#/defs/requried'}}
`;
    const dir = tempProject({ "m.yaml": text });
    expect(mcpgen(["validate", "m.yaml"], dir)).toMatchObject({ code: 0, stderr: "" });
  });

  it("in a pulled manifest (a server you do not own) a typo is a warning, and the client is generated as the server serves it", () => {
    const dir = tempProject({ "package.json": '{"type":"module"}', "m.yaml": `${PULLED}${issue}` });
    const r = mcpgen(["generate", "--client-only", "m.yaml"], dir);
    expect(r.code).toBe(0);
    const upstream = (at: string, key: string, near: string) =>
      `m.yaml:${at}: warning keyword-typo: \`${key}\` is not a JSON Schema keyword (did you mean \`${near}\`?): validators and clients ignore it, so it does nothing of what \`${near}\` does; the upstream server sends it so: report it there`;
    expect(lines(r.stderr)).toEqual([
      upstream("7:7", "properites", "properties"),
      upstream("7:41", "minLenght", "minLength"),
      upstream("8:7", "requried", "required"),
    ]);
    // What the server's validator reads: no properties, nothing required.
    expect(readFileSync(path.join(dir, "generated/s/types.ts"), "utf8")).toContain("export interface AddUserInput {\n  [key: string]: unknown;\n}");
  });
});

describe("keys of no keyword, and keywords of the other dialect: `lint` reports them (unknown-keyword)", () => {
  const text = `server: {name: s, version: '1'}
defs:
  Money: {type: object, properties: {amount: {type: number}}, nullable: true, x-unit: EUR}
tools:
  - name: t
    inputSchema:
      $schema: http://json-schema.org/draft-07/schema#
      type: object
      properties:
        list: {type: array, prefixItems: [{type: string}], tsType: 'string[]'}
        nullable: {type: string}
  - name: u
    inputSchema: {type: object, properties: {a: {type: array, additionalItems: false}}}
    outputSchema: {type: object, discriminator: {propertyName: a}}
`;

  it("validate passes them (JSON Schema allows any key); lint warns at each, with what to do", () => {
    const dir = tempProject({ "m.yaml": text });
    expect(mcpgen(["validate", "m.yaml"], dir)).toMatchObject({ code: 0, stderr: "" });
    const r = mcpgen(["lint", "m.yaml"], dir);
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toEqual([
      "m.yaml:3:63: warning unknown-keyword: `nullable` is not a JSON Schema keyword: no validator checks it, and clients get it as it is; if it is a note of yours, name it `x-nullable` (or put it in `description`); otherwise remove it",
      "m.yaml:10:29: warning unknown-keyword: `prefixItems` is a 2020-12 keyword, and this schema is draft-07 (its `$schema` says so): its validators ignore it; remove `$schema` to write 2020-12 (MCP's default), or use draft-07's keywords",
      "m.yaml:10:60: warning unknown-keyword: `tsType` is not a JSON Schema keyword: no validator checks it, and clients get it as it is; if it is a note of yours, name it `x-tsType` (or put it in `description`); otherwise remove it",
      "m.yaml:13:63: warning unknown-keyword: `additionalItems` is a draft-07 keyword, and this schema is 2020-12 (it declares no draft-07 `$schema`): its validators ignore it; use the 2020-12 form (`items` after `prefixItems`), or declare draft-07 with `$schema: http://json-schema.org/draft-07/schema#`",
      "m.yaml:14:34: warning unknown-keyword: `discriminator` is not a JSON Schema keyword: no validator checks it, and clients get it as it is; if it is a note of yours, name it `x-discriminator` (or put it in `description`); otherwise remove it",
    ]);
    expect(r.stdout).toBe("mcpgen: linted 1 manifest: 0 errors, 5 warnings.\n");
  });

  it("in a pulled manifest, the advice is for its consumer; the rule can be turned off like any other", () => {
    const dir = tempProject({ "m.yaml": `${PULLED}${text}` });
    const r = mcpgen(["lint", "m.yaml"], dir);
    expect(r.stderr).toContain(
      "m.yaml:4:63: warning unknown-keyword: `nullable` is not a JSON Schema keyword: no validator checks it, and clients get it as it is; the upstream server sends it so: report it there if it was meant to check something",
    );
    expect(mcpgen(["lint", "m.yaml", "--rule", "unknown-keyword=off"], dir).stderr).not.toContain("unknown-keyword");
  });
});

describe("typos of MCP fields: one rule, swaps count as one edit (item 5)", () => {
  const text = `server: {name: s, verison: '1'}
tools:
  - name: t
    titel: Get a user
    tilte: Get a user
    nmae: t
    descritpion: Gets a user
    inputSchema: {type: object}
    annotations: {raedOnlyHint: true}
`;

  it("titel, tilte and nmae are errors with a did-you-mean, as descritpion and verison are", () => {
    const dir = tempProject({ "m.yaml": text });
    const r = mcpgen(["validate", "m.yaml"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      "m.yaml:1:9: error missing-field: server is missing the required field `version`",
      "m.yaml:1:19: error unknown-field: unknown field `verison` in server (did you mean `version`?); allowed: name, folder, version, title, description, websiteUrl, icons, instructions",
      `m.yaml:4:5: error unknown-field: unknown field \`titel\` in a tool (did you mean \`title\`?); allowed: ${TOOL_FIELDS}`,
      `m.yaml:5:5: error unknown-field: unknown field \`tilte\` in a tool (did you mean \`title\`?); allowed: ${TOOL_FIELDS}`,
      `m.yaml:6:5: error unknown-field: unknown field \`nmae\` in a tool (did you mean \`name\`?); allowed: ${TOOL_FIELDS}`,
      `m.yaml:7:5: error unknown-field: unknown field \`descritpion\` in a tool (did you mean \`description\`?); allowed: ${TOOL_FIELDS}`,
      "m.yaml:9:19: error unknown-field: unknown field `raedOnlyHint` in `annotations` (did you mean `readOnlyHint`?); allowed: title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint",
      "mcpgen: 7 errors; nothing written.",
    ]);
  });

  it("in a pulled manifest they are warnings that say what clients will miss (the server serves them so)", () => {
    const pulled = `${PULLED}server: {name: s, version: '1'}\ntools:\n  - name: t\n    titel: Get a user\n    inputSchema: {type: object}\n`;
    const dir = tempProject({ "m.yaml": pulled });
    const r = mcpgen(["validate", "m.yaml"], dir);
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toEqual([
      "m.yaml:5:5: warning unknown-field: field `titel` in a tool looks like a typo of `title`: the upstream server serves it so, and clients will not read it as `title`; report it there (it is served as it is)",
    ]);
  });

  it("pull takes a server that serves typos (it stopped at `descritpion`), and says what it serves", () => {
    const dir = tempProject({ "package.json": "{}" });
    const tools = [{ name: "add_user", descritpion: "Adds a user.", inputSchema: { type: "object", properites: { name: { type: "string" } } } }];
    writeFileSync(
      path.join(dir, "server.mjs"),
      `import { createInterface } from "node:readline";
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === "initialize") return send({ id: m.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "typos", version: "1.0.0" } } });
  if (m.method === "tools/list") return send({ id: m.id, result: { tools: ${JSON.stringify(tools)} } });
  send({ id: m.id, error: { code: -32601, message: "Method not found" } });
});
`,
    );
    const r = mcpgen(["pull", "-o", "m.yaml", "--", "node", "server.mjs"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      "mcpgen: wrote m.yaml from typos (1 tool, 0 resources, 0 templates, 0 prompts, MCP 2025-11-25). It is client-only (its header says so): `mcpgen generate` writes its types, client and fixtures, no server and no handler stubs.\n",
    );
    expect(r.stderr).toBe(
      "mcpgen: -- node server.mjs: warning keyword-typo: `properites` is not a JSON Schema keyword (did you mean `properties`?): validators and clients ignore it, so it does nothing of what `properties` does; the upstream server sends it so: report it there\n  in what typos serves: inputSchema.properites of tool `add_user`\n",
    );
    expect(lines(mcpgen(["validate", "m.yaml"], dir).stderr)).toEqual([
      "m.yaml:11:5: warning unknown-field: field `descritpion` in a tool looks like a typo of `description`: the upstream server serves it so, and clients will not read it as `description`; report it there (it is served as it is)",
      "m.yaml:14:7: warning keyword-typo: `properites` is not a JSON Schema keyword (did you mean `properties`?): validators and clients ignore it, so it does nothing of what `properties` does; the upstream server sends it so: report it there",
    ]);
  });

  it("a value out of a fixed list gets the same did-you-mean", () => {
    const manifest = `server: {name: s, version: '1'}\ntools:\n  - name: t\n    inputSchema: {type: object}\n    execution: {taskSupport: optinal}\n    icons: [{src: 'https://x/i.png', theme: drak}]\n`;
    const dir = tempProject({ "m.yaml": manifest });
    expect(lines(mcpgen(["validate", "m.yaml"], dir).stderr)).toEqual([
      'm.yaml:5:30: error invalid-value: `taskSupport` must be one of "forbidden", "optional", "required", not "optinal" (did you mean "optional"?)',
      'm.yaml:6:45: error invalid-value: `theme` must be one of "light", "dark", not "drak" (did you mean "dark"?)',
    ]);
  });

  it("a required name next to a declared property gets the same did-you-mean", () => {
    const manifest = `server: {name: s, version: '1'}\ntools:\n  - name: t\n    inputSchema: {type: object, properties: {name: {type: string}}, required: [nmae]}\n`;
    const dir = tempProject({ "m.yaml": manifest });
    expect(lines(mcpgen(["validate", "m.yaml"], dir).stderr)).toEqual([
      "m.yaml:4:80: error required-without-schema: `nmae` is required but has no schema: a caller can only satisfy it blind, and the generated type says `unknown`; did you mean `name`?",
    ]);
  });
});

describe("all problems at once (item 6)", () => {
  it("get_user, get-user, get_user: the duplicate and the identifier collision in one run", () => {
    const text = `server: {name: s, version: '1'}
tools:
  - name: get_user
    inputSchema: {type: object}
  - name: get-user
    inputSchema: {type: object}
  - name: get_user
    inputSchema: {type: object}
`;
    const dir = tempProject({ "m.yaml": text });
    const r = mcpgen(["validate", "m.yaml"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      'm.yaml:5:11: error identifier-collision: tool "get-user" (its input type) and tool "get_user" (its input type) (line 3) both become the TypeScript type name GetUserInput; rename one of them',
      'm.yaml:5:11: error identifier-collision: tool "get-user" and tool "get_user" (line 3) both become the client method name getUser; rename one of them',
      'm.yaml:7:11: error duplicate-name: duplicate tool name "get_user": also declared at line 3 (tools[0]); each tool needs a unique name',
      "mcpgen: 3 errors; nothing written.",
    ]);
  });

  it("a clash among every kind of declaration, a missing file and a widget without its entry come with a schema error", () => {
    const text = `server: {name: s, version: '1'}
defs:
  ReportInput: {type: object}
tools:
  - name: report
    inputSchema: {type: object, properties: {n: {type: strin}}}
resources:
  - {uri: 'a://1', name: user-card, file: missing.txt}
widgets:
  - {name: user_card, uri: 'ui://card', entry: card.ts}
prompts:
  - {name: report_input, messages: [{role: user, content: {type: text, text: hi}}]}
  - {name: report-input, messages: [{role: user, content: {type: text, text: hi}}]}
`;
    const dir = tempProject({ "m.yaml": text });
    const r = mcpgen(["validate", "m.yaml"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      'm.yaml:5:11: error identifier-collision: tool "report" (its input type) and def "ReportInput" (line 3) both become the TypeScript type name ReportInput; rename one of them',
      'm.yaml:6:56: error invalid-schema: invalid JSON Schema at properties.n.type: must be equal to one of the allowed values ("array", "boolean", "integer", "null", "number", "object", "string"); did you mean "string"?',
      'm.yaml:8:43: error file-content: file "missing.txt" does not exist (paths are relative to the manifest\'s folder)',
      'm.yaml:10:12: error identifier-collision: widget "user_card" and resource "user-card" (line 8) both become the client method name readUserCard; rename one of them',
      'm.yaml:10:12: warning widget-unused: no tool opens widget "user_card": add `widget: user_card` to the tool whose result it shows (app-visible tools can still be called from other widgets)',
      'm.yaml:10:48: error widget-build: file "card.ts" does not exist (paths are relative to the manifest\'s folder)',
      'm.yaml:13:12: error identifier-collision: prompt "report-input" (its arguments type) and prompt "report_input" (its arguments type) (line 12) both become the TypeScript type name ReportInputArguments; rename one of them',
      "mcpgen: 6 errors; nothing written.",
    ]);
  });
});
