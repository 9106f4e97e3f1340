/**
 * Bad manifests: every problem is reported as `file:line:col: error CODE: message`, all at once,
 * and nothing is written.
 */
import { existsSync, symlinkSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES, DIAGNOSTICS, formatDiagnostic } from "../src/common/diagnostics.js";
import { watchFailed } from "../src/cli/watch.js";
import { checkedFileMissing, fileFailed, serverFailed } from "../src/commands/pull/problems.js";
import { conflictDiagnostic, staleDiagnostic } from "../src/generator/plan/problems.js";
import { interruptedRun, writeFailed } from "../src/generator/write/problems.js";
import { runPipeline } from "../src/generator/pipeline.js";
import { tempProject } from "./helpers/tmp.js";

async function diagnose(yaml: string, extra: Record<string, string> = {}): Promise<string[]> {
  const dir = tempProject({ "m.yaml": yaml, ...extra });
  const result = await runPipeline({ manifests: ["m.yaml"], out: "out", cwd: dir, mode: "write" });
  expect(existsSync(path.join(dir, "out"))).toBe(false);
  return result.diagnostics.map(formatDiagnostic);
}

const server = "server: {name: s, version: '1'}\n";

const cases: [string, { given: string; want: string[]; files?: Record<string, string> }][] = [
  [
    "YAML syntax error, reported once per line",
    {
      given: `${server}tools:\n  - name: a\n    description: "unclosed\n`,
      want: ['m.yaml:4:18: error yaml-syntax: YAML syntax error: Missing closing "quote: the quote opened on line 4 is not closed'],
    },
  ],
  [
    "unquoted {{placeholder}} gets a hint",
    {
      given: `${server}prompts:\n  - name: p\n    messages:\n      - {role: user, content: {type: text, text: Hi {{x}}}}\n`,
      want: [
        'm.yaml:5:53: error yaml-syntax: YAML syntax error: Unexpected flow-map-start at node end: a value holding {{placeholders}} must be quoted in YAML: text: "Hello {{name}}"',
      ],
    },
  ],
  [
    "duplicate keys",
    {
      given: `${server}server: {name: t, version: '1'}\n`,
      want: [
        "m.yaml:2:1: error yaml-duplicate-key: duplicate key `server`: this mapping has it already at line 1, column 1; each key may appear once (remove or rename one)",
      ],
    },
  ],
  [
    "duplicate keys in a nested and a flow mapping, each with where the first one is",
    {
      given: `${server}tools:\n  - name: a\n    description: x\n    inputSchema: {type: object}\n    description: y\n  - {name: b, name: c}\n`,
      want: [
        "m.yaml:6:5: error yaml-duplicate-key: duplicate key `description`: this mapping has it already at line 4, column 5; each key may appear once (remove or rename one)",
        "m.yaml:7:15: error yaml-duplicate-key: duplicate key `name`: this mapping has it already at line 7, column 6; each key may appear once (remove or rename one)",
      ],
    },
  ],
  [
    "not a mapping",
    {
      given: "- a\n- b\n",
      want: [
        "m.yaml:1:1: error not-a-mapping: a manifest is a YAML mapping with `server:` and any of `tools:`, `resources:`, `resourceTemplates:`, `prompts:`, `defs:`",
      ],
    },
  ],
  [
    "missing server, unknown top-level key with a suggestion",
    {
      given: "tool:\n  - name: a\n",
      want: [
        "m.yaml:1:1: error missing-field: the manifest is missing the required field `server`",
        "m.yaml:1:1: error unknown-field: unknown field `tool` in the manifest (did you mean `tools`?); allowed: server, capabilities, cache, auth, defs, tools, resources, resourceTemplates, prompts, widgets",
      ],
    },
  ],
  [
    "every problem of every tool at once: bad name, wrong types, unknown field, missing inputSchema",
    {
      given: `${server}tools:\n  - name: 'bad name!'\n    inputSchema: {type: object}\n  - name: b\n    toolName: b\n    annotations: {readOnlyHint: 'yes'}\n`,
      want: [
        'm.yaml:3:11: warning invalid-name: `name` "bad name!" is not advised: use 1 to 128 characters among A-Z a-z 0-9 _ - . (MCP tool names SHOULD be; some clients refuse others)',
        "m.yaml:5:5: error missing-field: a tool is missing the required field `inputSchema`",
        // Not an edit away from a known field: an MCP object's other fields are served as they are.
        "m.yaml:6:5: warning unknown-field: field `toolName` in a tool is not one mcpgen knows; it is served as it is (known fields: name, title, description, inputSchema, outputSchema, annotations, execution, icons, _meta, examples, widget, visibility, scopes, auth, enabled, tags, securitySchemes)",
        'm.yaml:7:33: error invalid-type: `readOnlyHint` must be true or false, not the string "yes"',
      ],
    },
  ],
  [
    "inputSchema and outputSchema must be type: object",
    {
      given: `${server}tools:\n  - name: a\n    inputSchema: {type: string}\n    outputSchema: {type: array, items: {type: string}}\n`,
      want: [
        'm.yaml:4:25: error schema-not-object: tools[0].inputSchema: type must be "object" (MCP clients reject other tool input schemas); wrap other values in a property',
        'm.yaml:5:26: error schema-not-object: tools[0].outputSchema: type must be "object" (structuredContent is always a JSON object); wrap other values in a property',
      ],
    },
  ],
  [
    "invalid JSON Schema, located inside the schema",
    {
      given: `${server}tools:\n  - name: a\n    inputSchema:\n      type: object\n      properties:\n        n: {type: strin}\n`,
      want: [
        'm.yaml:7:19: error invalid-schema: invalid JSON Schema at properties.n.type: must be equal to one of the allowed values ("array", "boolean", "integer", "null", "number", "object", "string"); did you mean "string"?',
      ],
    },
  ],
  [
    "patterns the server's validator would reject, in a tool schema and in a def",
    {
      given: `${server}defs:\n  Code: {type: string, pattern: 'a(b'}\ntools:\n  - name: a\n    inputSchema:\n      type: object\n      properties:\n        c: {$ref: '#/defs/Code'}\n        d: {type: object, patternProperties: {'[z': {type: string}}}\n`,
      want: [
        'm.yaml:3:33: error invalid-schema: pattern "a(b" is not a valid regular expression: Invalid regular expression: /a(b/u: Unterminated group',
        'm.yaml:10:47: error invalid-schema: pattern "[z" is not a valid regular expression: Invalid regular expression: /[z/u: Unterminated character class',
      ],
    },
  ],
  [
    "duplicate names, and colliding identifiers naming both declarations",
    {
      given: `${server}tools:\n  - {name: suggest_gifts, inputSchema: {type: object}}\n  - {name: suggest-gifts, inputSchema: {type: object}}\n  - {name: suggest_gifts, inputSchema: {type: object}}\n`,
      // All in one run: the duplicate (a validation error) does not hide the clash (the model's).
      want: [
        'm.yaml:4:12: error identifier-collision: tool "suggest-gifts" (its input type) and tool "suggest_gifts" (its input type) (line 3) both become the TypeScript type name SuggestGiftsInput; rename one of them',
        'm.yaml:4:12: error identifier-collision: tool "suggest-gifts" and tool "suggest_gifts" (line 3) both become the client method name suggestGifts; rename one of them',
        'm.yaml:5:12: error duplicate-name: duplicate tool name "suggest_gifts": also declared at line 3 (tools[0]); each tool needs a unique name',
      ],
    },
  ],
  [
    "identifier collision across separators",
    {
      given: `${server}tools:\n  - {name: suggest_gifts, inputSchema: {type: object}}\n  - {name: suggest-gifts, inputSchema: {type: object}}\n`,
      want: [
        'm.yaml:4:12: error identifier-collision: tool "suggest-gifts" (its input type) and tool "suggest_gifts" (its input type) (line 3) both become the TypeScript type name SuggestGiftsInput; rename one of them',
        'm.yaml:4:12: error identifier-collision: tool "suggest-gifts" and tool "suggest_gifts" (line 3) both become the client method name suggestGifts; rename one of them',
      ],
    },
  ],
  [
    "a def colliding with a generated type name",
    {
      given: `${server}defs:\n  ToolInputs: {type: string}\ntools:\n  - {name: a, inputSchema: {type: object}}\n`,
      want: [
        'm.yaml:3:3: error identifier-collision: def "ToolInputs" and mcpgen\'s built-in type ToolInputs both become the TypeScript type name ToolInputs; rename one of them',
      ],
    },
  ],
  [
    "missing, external and URL refs",
    {
      given: `${server}defs:\n  A: {type: object}\ntools:\n  - name: a\n    inputSchema:\n      type: object\n      properties:\n        x: {$ref: '#/defs/B'}\n        y: {$ref: '../other.json'}\n        z: {$ref: 'https://example.com/s.json'}\n`,
      want: [
        'm.yaml:9:19: error unresolved-ref: $ref "#/defs/B" names no def; declared defs: A',
        "m.yaml:10:19: error unsupported-ref: $ref \"../other.json\" is not supported: refs to other files are not followed; copy the schema into `defs:` and use $ref: '#/defs/Name'",
        "m.yaml:11:19: error unsupported-ref: $ref \"https://example.com/s.json\" is not supported: refs to URLs are not fetched; copy the schema into `defs:` and use $ref: '#/defs/Name'",
      ],
    },
  ],
  [
    "examples that break their schemas",
    {
      given: `${server}tools:\n  - name: a\n    inputSchema: {type: object, properties: {n: {type: number}}, required: [n]}\n    outputSchema: {type: object, properties: {ok: {type: boolean}}, required: [ok]}\n    examples:\n      - arguments: {n: one}\n        result: {}\n`,
      want: [
        "m.yaml:7:20: error invalid-example: example arguments do not match inputSchema: Property 'n' must be number",
        "m.yaml:8:17: error invalid-example: example result does not match outputSchema: Missing required property 'ok'",
      ],
    },
  ],
  [
    "placeholders naming no declared argument, and a system role",
    {
      given: `${server}prompts:\n  - name: p\n    arguments: [{name: tone}]\n    messages:\n      - {role: system, content: {type: text, text: 'Be {{tone}} and {{mood}}'}}\n`,
      want: [
        'm.yaml:6:16: error invalid-value: `role` must be one of "user", "assistant", not "system" (MCP prompts have no system role: use user)',
        // Independent of the role: reported in the same run.
        'm.yaml:6:52: error unknown-placeholder: placeholder {{mood}} names no argument of prompt "p"; declared: tone; add it under `arguments:`, or use one of these',
      ],
    },
  ],
  [
    "placeholders naming no declared argument",
    {
      given: `${server}prompts:\n  - name: p\n    arguments: [{name: tone}]\n    messages:\n      - {role: user, content: {type: text, text: 'Be {{tone}} and {{mood}}'}}\n`,
      want: [
        'm.yaml:6:50: error unknown-placeholder: placeholder {{mood}} names no argument of prompt "p"; declared: tone; add it under `arguments:`, or use one of these',
      ],
    },
  ],
  [
    "a placeholder one edit away from an argument",
    {
      given: `${server}prompts:\n  - name: p\n    arguments: [{name: tone}, {name: topic}]\n    messages:\n      - {role: user, content: {type: text, text: 'Be {{tnoe}}'}}\n`,
      want: ['m.yaml:6:50: error unknown-placeholder: placeholder {{tnoe}} names no argument of prompt "p"; did you mean {{tone}}? (declared: tone, topic)'],
    },
  ],
  [
    "a query expression, with the query to write",
    {
      given: `${server}resourceTemplates:\n  - {uriTemplate: 'search://{kind}{?q}', name: s}\n`,
      want: [
        'm.yaml:3:19: error invalid-uri-template: uriTemplate "search://{kind}{?q}": expression {?q} is beyond RFC 6570 level 1, which is what mcpgen serves: write the query yourself: ?q={q} (every variable is then required; declare optional inputs as a tool\'s arguments)',
      ],
    },
  ],
  [
    "resources: two content sources, bad base64, missing file, file outside the folder",
    {
      given: `${server}resources:\n  - {uri: 'a://1', name: a, text: x, blob: eA==}\n  - {uri: 'a://2', name: b, blob: 'not base64!'}\n  - {uri: 'a://3', name: c, file: missing.txt}\n  - {uri: 'a://4', name: d, file: ../secret.txt}\n`,
      files: { "../secret.txt": "s" },
      want: [
        "m.yaml:3:38: error invalid-value: a resource has at most one of text, blob and file (found text, blob); keep one, or none to serve it from a handler",
        "m.yaml:4:35: error invalid-value: blob must be base64 (RFC 4648, with padding); use text for plain text or file for a file next to the manifest",
        // The files too, with the errors above (the model that reads them is built from a valid manifest only).
        'm.yaml:5:35: error file-content: file "missing.txt" does not exist (paths are relative to the manifest\'s folder)',
        'm.yaml:6:35: error file-content: file "../secret.txt" resolves outside the manifest\'s folder; copy it next to the manifest',
      ],
    },
  ],
  [
    "resources: missing file and a file outside the manifest's folder",
    {
      given: `${server}resources:\n  - {uri: 'a://3', name: c, file: missing.txt}\n  - {uri: 'a://4', name: d, file: ../secret.txt}\n`,
      want: [
        'm.yaml:3:35: error file-content: file "missing.txt" does not exist (paths are relative to the manifest\'s folder)',
        'm.yaml:4:35: error file-content: file "../secret.txt" resolves outside the manifest\'s folder; copy it next to the manifest',
      ],
    },
  ],
  [
    "URI templates beyond level 1",
    {
      given: `${server}resourceTemplates:\n  - {uriTemplate: 'file:///{+path}', name: f}\n  - {uriTemplate: 'x://fixed', name: g}\n`,
      want: [
        'm.yaml:3:19: error invalid-uri-template: uriTemplate "file:///{+path}": expression {+path} is beyond RFC 6570 level 1, which is what mcpgen serves; a level-1 value may hold / and ?: clients send them percent-encoded (%2F, %3F) and the handler gets them decoded, so write {path}; or, for a path of known depth, one variable per segment ({dir}/{name})',
        'm.yaml:4:19: error invalid-uri-template: uriTemplate "x://fixed": a template needs at least one {variable}; a fixed URI is a resource',
      ],
    },
  ],
  [
    "server name that would not be a safe folder name",
    {
      given: "server: {name: '../evil', version: '1'}\n",
      want: [
        "m.yaml:1:16: error invalid-name: `name` \"../evil\" is not a folder name: use lowercase letters, digits and '-', starting with a letter or digit (it names the output folder), or keep it and add `folder:` with such a name",
      ],
    },
  ],
  [
    "a server name that is not a folder name, with `folder:` (and no escape through it)",
    {
      given: "server: {name: 'mcp-servers/everything', folder: '../x', version: '1'}\n",
      want: ["m.yaml:1:50: error invalid-name: `folder` \"../x\" is not valid: use lowercase letters, digits and '-', starting with a letter or digit"],
    },
  ],
  [
    "YAML tags (a tag error stops before the shape checks)",
    {
      given: `${server}tools:\n  - name: a\n    inputSchema: {type: object, properties: {n: {type: number, maximum: .inf}}}\n    _meta: {icon: !!binary aGk=}\n`,
      want: ["m.yaml:5:19: error yaml-tag: YAML tags are not supported (found !!binary): write the value as a plain string, number, list or mapping"],
    },
  ],
  [
    "non-finite numbers",
    {
      given: `${server}tools:\n  - name: a\n    inputSchema: {type: object, properties: {n: {type: number, maximum: .inf}}}\n`,
      want: ["m.yaml:4:73: error invalid-value: Infinity cannot be sent as JSON: use a finite number (or a string)"],
    },
  ],
  [
    "numbers too large for a double are not JSON either",
    {
      given: `${server}tools:\n  - name: a\n    inputSchema: {type: object, properties: {n: {type: number, maximum: 1e999, minimum: ${"9".repeat(400)}}}}\n`,
      want: [
        "m.yaml:4:73: error invalid-value: Infinity cannot be sent as JSON: use a finite number (or a string)",
        "m.yaml:4:89: error invalid-value: Infinity cannot be sent as JSON: use a finite number (or a string)",
      ],
    },
  ],
  [
    "boolean tool schemas",
    {
      given: `${server}tools:\n  - {name: a, inputSchema: true, outputSchema: false}\n`,
      want: [
        'm.yaml:3:28: error schema-not-object: tools[0].inputSchema: must be a JSON Schema mapping with type: "object", not the boolean schema true (MCP clients reject it)',
        'm.yaml:3:48: error schema-not-object: tools[0].outputSchema: must be a JSON Schema mapping with type: "object", not the boolean schema false (MCP clients reject it)',
      ],
    },
  ],
  [
    "schema errors inside lists are located on the item",
    {
      given: `${server}tools:\n  - name: a\n    inputSchema:\n      type: object\n      allOf:\n        - {type: object}\n        - {type: strin}\n`,
      want: [
        'm.yaml:8:18: error invalid-schema: invalid JSON Schema at allOf.1.type: must be equal to one of the allowed values ("array", "boolean", "integer", "null", "number", "object", "string"); did you mean "string"?',
      ],
    },
  ],
  [
    "adjacent template variables; task support is accepted",
    {
      given: `${server}tools:\n  - {name: a, inputSchema: {type: object}, execution: {taskSupport: required}}\nresourceTemplates:\n  - {uriTemplate: 'x://{a}{b}', name: t}\n`,
      want: [
        'm.yaml:5:19: error invalid-uri-template: uriTemplate "x://{a}{b}": two expressions side by side ({a}{b}) cannot be told apart in a URI; put a literal between them',
      ],
    },
  ],
  [
    "x-mcp-header annotations that HTTP clients would drop the tool for (a nested integer is fine)",
    {
      given: `${server}tools:
  - name: a
    inputSchema:
      type: object
      properties:
        region: {type: string, x-mcp-header: Region}
        zone: {type: string, x-mcp-header: REGION}
        n: {type: number, x-mcp-header: N}
        tags: {type: array, items: {type: string, x-mcp-header: Tag}}
        bad: {type: string, x-mcp-header: 'a b'}
        nested: {type: object, properties: {id: {type: integer, x-mcp-header: Id}}}
defs:
  D: {type: string, x-mcp-header: D}
`,
      want: [
        'm.yaml:8:44: error invalid-value: x-mcp-header "REGION" repeats "Region" (header names are compared without regard to case)',
        'm.yaml:9:41: error invalid-value: x-mcp-header marks a property of type "number"; it must be "string", "integer" or "boolean" (MCP forbids "number")',
        "m.yaml:10:65: error invalid-value: x-mcp-header may only mark a property reached from the root through `properties` (not items, $ref, anyOf/oneOf/allOf, if/then/else, or the root itself)",
        'm.yaml:11:43: error invalid-value: x-mcp-header "a b" is not a valid header name: use letters, digits and !#$%&\'*+-.^_`|~ only (no spaces, colons or non-ASCII)',
        "m.yaml:14:35: error invalid-value: x-mcp-header cannot be in a def: a property reached through $ref cannot be mirrored in a header; put the property in the tool's inputSchema",
      ],
    },
  ],
  [
    "cache hints: a negative or fractional ttlMs, an unknown cacheScope",
    {
      given: `${server}cache:\n  tools/list: {ttlMs: -1, cacheScope: shared}\n  resources/read: {ttlMs: 1.5}\n`,
      want: [
        "m.yaml:3:23: error invalid-value: `ttlMs` must be between 0 and 9007199254740991, not -1",
        'm.yaml:3:39: error invalid-value: `cacheScope` must be one of "public", "private", not "shared"',
        "m.yaml:4:27: error invalid-value: `ttlMs` must be a whole number, not 1.5",
      ],
    },
  ],
  [
    "fields of MCP objects mcpgen does not know: served as they are (a warning), unless a typo of a known one",
    {
      given: `server: {name: s, version: '1', vendorInfo: x}
tools:
  - name: a
    inputSchema: {type: object}
    annotations: {readOnlyHnt: true, com.acme/audited: true}
    deprecated: true
`,
      want: [
        "m.yaml:1:33: warning unknown-field: field `vendorInfo` in server is not one mcpgen knows; it is served as it is (known fields: name, folder, version, title, description, websiteUrl, icons, instructions)",
        "m.yaml:5:19: error unknown-field: unknown field `readOnlyHnt` in `annotations` (did you mean `readOnlyHint`?); allowed: title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint",
        "m.yaml:5:38: warning unknown-field: field `com.acme/audited` in `annotations` is not one mcpgen knows; it is served as it is (known fields: title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint)",
        "m.yaml:6:5: warning unknown-field: field `deprecated` in a tool is not one mcpgen knows; it is served as it is (known fields: name, title, description, inputSchema, outputSchema, annotations, execution, icons, _meta, examples, widget, visibility, scopes, auth, enabled, tags, securitySchemes)",
      ],
    },
  ],
  [
    "patterns the linear-time engine cannot run (an error), and patterns that backtrack in other engines (a warning)",
    {
      given: `${server}tools:
  - name: a
    inputSchema:
      type: object
      properties:
        twice: {type: string, pattern: '(\\w)\\1'}
        word: {type: string, pattern: '^(a+)+$'}
        code: {type: string, pattern: '\\d+\\w+$'}
        mail: {type: string, pattern: '^(?!\\.)[a-z.]+@[a-z]+$'}
      patternProperties:
        'x(?=y)': {type: string}
`,
      want: [
        'm.yaml:7:40: error pattern-unsupported: pattern "(\\\\w)\\\\1" cannot run in linear time: a backreference (\\1); the generated server would not check it: rewrite it without that part, or drop it and check the value in the handler',
        'm.yaml:8:39: warning pattern-backtracking: pattern "^(a+)+$" can take exponential time in backtracking regex engines (JavaScript\'s RegExp, which most MCP clients\' validators use): (a+)+ can match a run of "a" in many ways, so such input plus one character that fails can stall them. mcpgen\'s server and client match it in linear time; rewrite it so that no two quantifiers can match the same text',
        'm.yaml:9:39: warning pattern-backtracking: pattern "\\\\d+\\\\w+$" can take polynomial time in backtracking regex engines (JavaScript\'s RegExp, which most MCP clients\' validators use): \\d+ and \\w+ can match a run of "0" in many ways, so such input plus one character that fails can stall them. mcpgen\'s server and client match it in linear time; the same pattern without the risk: "\\\\d\\\\w+$"',
        'm.yaml:12:9: error pattern-unsupported: pattern "x(?=y)" cannot run in linear time: a lookahead ((?=y)) that is not right after a leading ^; the generated server would not check it: rewrite it without that part, or drop it and check the value in the handler',
      ],
    },
  ],
  [
    "YAML alias bombs",
    {
      given: `${server}defs:\n  A: &a {type: object, description: x}\n  B: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n  C: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n  D: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n`,
      want: [
        "m.yaml:4:10: error yaml-aliases: too many YAML alias expansions (limit 100): Excessive alias count indicates a resource exhaustion attack; write the repeated part out or use $ref: '#/defs/Name'",
      ],
    },
  ],
  [
    "enabled that is not a boolean, a tag that is not a non-empty string",
    {
      given: `${server}tools:\n  - name: a\n    inputSchema: {type: object}\n    enabled: "no"\n    tags: [ok, "", 3]\n`,
      want: [
        'm.yaml:5:14: error invalid-type: `enabled` must be true or false, not the string "no"',
        'm.yaml:6:16: error invalid-value: item must be a tag (a non-empty string), not the string ""',
        "m.yaml:6:20: error invalid-type: item must be a tag (a non-empty string), not number 3 (quote it in YAML)",
      ],
    },
  ],
];

describe("diagnostics", () => {
  it.each(cases)("%s", async (_name, { given, want, files }) => {
    expect(await diagnose(given, files)).toEqual(want);
  });

  it("reports problems of several manifests in one run, and writes nothing for any of them", async () => {
    const dir = tempProject({
      "manifests/a.yaml": `${server}tools:\n  - {name: a}\n`,
      "manifests/b.yaml": "server: {name: b}\n",
      "package.json": "{}",
      "manifests/ok.yaml": "server: {name: ok, version: '1'}\n",
    });
    const result = await runPipeline({ manifests: ["manifests"], out: "out", cwd: dir, mode: "write" });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      "manifests/a.yaml:3:5: error missing-field: a tool is missing the required field `inputSchema`",
      "manifests/b.yaml:1:9: error missing-field: server is missing the required field `version`",
    ]);
    expect(existsSync(path.join(dir, "out"))).toBe(false);
  });

  it("refuses a file: resource that is a symlink leading out of the manifest's folder", async () => {
    const dir = tempProject({ "secret.txt": "s", "m/m.yaml": `${server}resources:\n  - {uri: 'a://1', name: a, file: link.txt}\n` });
    symlinkSync(path.join(dir, "secret.txt"), path.join(dir, "m/link.txt"));
    const result = await runPipeline({ manifests: ["m/m.yaml"], out: "out", cwd: dir, mode: "validate" });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'm/m.yaml:3:35: error file-content: file "link.txt" resolves outside the manifest\'s folder; copy it next to the manifest',
    ]);
  });

  it("takes the patterns of a pulled manifest with warnings: they are the server's", async () => {
    const dir = tempProject({
      "m.yaml": `# Pulled by mcpgen from \`x\` (MCP 2025-11-25).\n${server}tools:\n  - name: a\n    inputSchema: {type: object, properties: {x: {type: string, pattern: '(a)\\1'}}}\n`,
    });
    const result = await runPipeline({ manifests: ["m.yaml"], out: "out", cwd: dir, mode: "validate" });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'm.yaml:5:73: warning pattern-unsupported: pattern "(a)\\\\1" cannot run in linear time: a backreference (\\1); the generated server and client do not check it (the server\'s own clients still may)',
    ]);
  });

  it("refuses two manifests with the same server name", async () => {
    const dir = tempProject({ "a.yaml": server, "b.yaml": server });
    const result = await runPipeline({ manifests: ["a.yaml", "b.yaml"], out: "out", cwd: dir, mode: "write" });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      `b.yaml:1:16: error duplicate-server: server name "s" is also used by a.yaml; both would write ${path.join("out", "s")}`,
    ]);
  });
});

describe("diagnostics of the command line and the output folder", () => {
  it("prints a fix after the message, and a command-line problem at its argument", () => {
    expect(
      formatDiagnostic({ severity: "error", code: "invalid-argument", argument: "--cwd nowhere", message: "no such folder", fix: "give an existing folder" }),
    ).toBe("mcpgen: --cwd nowhere: error invalid-argument: no such folder; give an existing folder");
    expect(formatDiagnostic(conflictDiagnostic("out/s/server.ts", "out/"))).toBe(
      'out/s/server.ts:1:1: error not-generated: this file was not written by mcpgen (no "// @generated by mcpgen" header); refusing to overwrite it; move it out of out/ or pick another --out',
    );
  });

  it("puts a stale file at its first differing line (line 1 when it is missing or no longer generated)", () => {
    const update = staleDiagnostic({ kind: "update", file: "/p/out/a.ts", display: "out/a.ts", before: "a\nb\nc\n", after: "a\nb\nC\n" }, "mcpgen generate");
    expect(formatDiagnostic(update)).toBe("out/a.ts:3:1: error stale-output: stale (out of date); run mcpgen generate");
    expect(staleDiagnostic({ kind: "create", file: "/p/out/b.ts", display: "out/b.ts", after: "x" }, "mcpgen generate")).toMatchObject({
      line: 1,
      message: "stale (missing)",
    });
    expect(staleDiagnostic({ kind: "delete", file: "/p/out/c.ts", display: "out/c.ts", before: "x" }, "mcpgen generate")).toMatchObject({
      line: 1,
      message: "stale (no longer generated)",
    });
  });

  it("says what pull, watch, diff and the write stage cannot do at the file or the argument, with a fix where the message has none", () => {
    expect(formatDiagnostic(serverFailed("-- node s.mjs", "connecting to `node s.mjs` failed: no answer"))).toBe(
      "mcpgen: -- node s.mjs: error server-failed: connecting to `node s.mjs` failed: no answer",
    );
    expect(formatDiagnostic(fileFailed("m/x.yaml", false, "permission denied"))).toBe(
      "m/x.yaml:1:1: error write-failed: cannot write m/x.yaml: permission denied",
    );
    expect(formatDiagnostic(fileFailed("adir", true, "it is a folder (give a file with -o)"))).toBe(
      "adir:1:1: error file-unreadable: cannot read adir: it is a folder (give a file with -o)",
    );
    expect(formatDiagnostic(checkedFileMissing("m.yaml"))).toBe(
      "m.yaml:1:1: error stale-output: m.yaml does not exist; run the same command without --check to write it.",
    );
    expect(formatDiagnostic(writeFailed("cannot write out/s: EACCES (permission denied)", "out/"))).toBe(
      "mcpgen: out/: error write-failed: cannot write out/s: EACCES (permission denied)",
    );
    expect(formatDiagnostic(watchFailed("manifests", "ENOSPC"))).toBe(
      "mcpgen: manifests: error watch-failed: cannot watch manifests: ENOSPC; changes there are not seen; run mcpgen generate after editing there",
    );
    expect(formatDiagnostic(interruptedRun("recovered from an interrupted run (pid 41): removed out/.s.mcpgen-new-41", "out/"))).toBe(
      "mcpgen: out/: warning interrupted-run: recovered from an interrupted run (pid 41): removed out/.s.mcpgen-new-41",
    );
    // More said under a diagnostic goes on its own lines, after the fix.
    expect(
      formatDiagnostic({
        severity: "error",
        code: "diff-input",
        argument: "a.yaml",
        message: "not a valid manifest, so it cannot be compared:",
        detail: "a.yaml:1:1: error x\n  a.yaml:2:1: error y",
      }),
    ).toBe("mcpgen: a.yaml: error diff-input: not a valid manifest, so it cannot be compared:\n  a.yaml:1:1: error x\n  a.yaml:2:1: error y");
  });

  it("every code says what it means, and is a row of the diagnostics reference", async () => {
    const { readFileSync } = await import("node:fs");
    const page = readFileSync(new URL("../docs/reference/diagnostics.md", import.meta.url), "utf8");
    for (const code of DIAGNOSTIC_CODES) {
      expect(DIAGNOSTICS[code].length, code).toBeGreaterThan(10);
      expect(page, code).toContain(`| \`${code}\` |`);
    }
  });
});
