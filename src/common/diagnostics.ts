/**
 * Diagnostics: every problem mcpgen finds in a manifest, with where it is and how to fix it.
 * Problems are collected, never thrown, so a run reports all of them at once.
 */
import * as path from "node:path";

type Severity = "error" | "warning";

/**
 * Every problem code, with what it means: stable, and the one source of the diagnostics reference
 * (docs/reference/diagnostics.md, written by `npm run docs`). The lint rules' own words are in
 * LINT_RULES below.
 */
export const DIAGNOSTICS = {
  "file-unreadable": "The manifest path does not exist or cannot be read; or the file `pull` would compare with or overwrite cannot be read.",
  "yaml-syntax":
    "A YAML syntax error, pointed at the line to change (often not where the parser stopped), with the usual cause: an unquoted `: ` in a value (and the quoted value to write), a line indented under a key that already has a value, a tab, the line where an unclosed quote or bracket opened, an unquoted `{{placeholder}}`. An indentation slip (a key a space off, a tab) is one error on the line that slipped, with the indentation that fixes it; what the parser reports after it because of it is not repeated.",
  "yaml-duplicate-key": "The same key twice in one mapping.",
  "yaml-aliases": "YAML aliases expanded beyond 100 (a billion-laughs document).",
  "yaml-tag": "A YAML tag such as `!!binary`: a value JSON cannot carry.",
  "not-a-mapping": "The manifest (or a part that must be a mapping) is not a mapping.",
  "missing-field": "A required field is missing.",
  "unknown-field":
    'A field mcpgen does not know. Inside an MCP object (a tool, resource, template, prompt, prompt argument, `annotations`, `icons`, `execution`, `server`, a content block) it is a warning and the field is served as written, unless it is a typo of a known field by the rule of every "did you mean" (one edit away, case aside, a swap of two neighbouring letters counting as one: `titel`, `nmae`, `descritpion`; two edits from 6 letters on, three from 9): then an error with a "did you mean" (a warning in a manifest written by `mcpgen pull`, whose server serves it so). Elsewhere (the top of the manifest, mcpgen\'s own keys, the config) always an error.',
  "invalid-type": "A value of the wrong type (a list where a mapping belongs, a number where a string does).",
  "invalid-value":
    'A value outside the allowed ones: not one of the listed values (with a "did you mean" when it is a typo of one), out of range, `.inf`/`.nan`, a broken `x-mcp-header` rule.',
  "invalid-name":
    "A name (or another value with a pattern) breaks its rule: `server.name`, a def's name, a widget's `name` or `uri`. A tool name outside MCP's `^[A-Za-z0-9._-]{1,128}$` is a warning.",
  "duplicate-name": "The same name twice in one list; the message names the line of the other declaration.",
  "invalid-schema": "A JSON Schema breaks its meta-schema (2020-12, or draft-07 when it says so), pointed at the offending keyword.",
  "schema-not-object":
    "A tool's inputSchema or outputSchema is not `type: object` at the root (MCP clients reject other tool input schemas). A warning in a manifest written by `mcpgen pull`: the schema is kept as the server serves it, and typed as it admits.",
  "unresolved-ref": "A `$ref` to a def or `$defs` entry that does not exist.",
  "unsupported-ref": "A `$ref` to a file, a URL or a pointer mcpgen does not resolve (nothing is fetched or read).",
  "invalid-example":
    "A tool example whose arguments or result break the tool's schema, or hold a key the schema does not declare where it admits no other (no `additionalProperties`, `patternProperties` or composition there): the generated types name only declared properties, so no typed caller could send or read it (`{greeting: Hello, Ada!}` makes the key `Ada!`).",
  "unknown-placeholder": "A `{{name}}` in a prompt message that names no argument of the prompt.",
  "invalid-uri-template":
    "A resource template beyond RFC 6570 level 1 (`{+path}`, `{?q}`), unbalanced, or without variables; for an operator or modifier the message gives the level-1 template to write (`{?q}`: `?q={q}`; `{+path}`: `{path}`, whose value may hold `/`, sent as `%2F`).",
  "identifier-collision":
    "Two declarations (or one and a name mcpgen generates or reserves) would become the same TypeScript identifier (`suggest_gifts` and `suggest-gifts`); the message names both. Reported with the manifest's other errors, a duplicate name among them.",
  "file-content": "A `file:` resource that is missing, or outside the manifest's folder (a symbolic link leading out included).",
  "duplicate-server": "Two manifests of one run with the same output folder (`server.name`, or `server.folder`).",
  "client-only":
    '`generate --client-only` in a project where a manifest you wrote (not pulled) has handler files in the stubs folder: the flag would turn that server into a client only and remove its server files. Name the servers to make client-only in the config (`"clientOnly": ["name"]`); a manifest written by `mcpgen pull` is client-only already, without the flag.',
  config:
    "A bad config file: a bad `diagnostics` or `lint` entry (an error code given a level, a code set in both), a missing `--config` file, two config files at once. Its unknown keys and bad values are `unknown-field`, `invalid-type` and `invalid-value`, as in a manifest.",
  "runtime-version":
    "In the default `runtime: package` mode, the `@mcpgen/runtime` the output folder resolves is not a version this mcpgen generates for (`^<mcpgen's version>`: the same minor line, at least this patch). Generated code and the runtime move in lockstep: install the version the message names, or set `runtime: vendor` to copy the runtime into the output instead. Located at the dependency in the project's package.json when it declares one.",
  "runtime-missing":
    "A warning: in the default `runtime: package` mode, the output folder is in an npm project (a package.json at or above it) where no `@mcpgen/runtime` is installed, so the generated code does not compile or run yet. The message gives the `npm install` to run; `runtime: vendor` copies the runtime into the output instead.",
  "stub-orphan":
    "A warning: a handler stub that nothing in the manifest needs any more (its tool was removed or renamed). Move the code, then delete the file.",
  "required-without-schema":
    "A name in `required` of an object schema (one with `type: object`, `properties`, `additionalProperties` or `patternProperties`) that no subschema describes (not in `properties`, no matching `patternProperties`, no `additionalProperties` schema): a caller can only send it blind. Composition branches (`anyOf: [{required: [a]}, ...]`) and required-only fragments (`defs: {ByPhone: {required: [phone]}}`) are not checked. A warning in a manifest written by `mcpgen pull`. The generated type has the property either way, typed as the validator admits it.",
  "keyword-typo":
    "A key of a JSON Schema (a tool's inputSchema or outputSchema, a def, at any depth) that is no keyword of the schema's dialect (2020-12, or draft-07 when its `$schema` says so) but a typo of one, by the rule of every \"did you mean\" (see `unknown-field`). `properites`, `requried`, `minLenght`: validators ignore such a key, so the schema would check less than it says. An error with the keyword meant; a warning in a manifest written by `mcpgen pull`. Property names are data, not keys of the schema; `x-` keys are extensions (but an `x-mcp` key next to `x-mcp-header` is a typo); a key of no dialect at all is allowed, and `mcpgen lint` reports it (`unknown-keyword`).",
  "misplaced-key":
    "A key in the wrong place, as a slip of indentation leaves it: a property's schema beside `properties` instead of under it (`born: {type: integer}` one level too far left), or a key of a tool's inputSchema (`required`, `properties`) under the tool itself. Validators and clients would not read it there. An error with where to indent it; a warning in a manifest written by `mcpgen pull`.",
  "suspicious-key":
    "A warning: a key in a JSON Schema that YAML made from text (a key with the value null, or one that reads like prose: spaces, a final `.`), other than JSON Schema keywords (a bad value there is an `invalid-schema` error) and `x-` extensions. In `{description: ISO date, YYYY-MM-DD.}` the comma ends the description and `YYYY-MM-DD.` would be served as a keyword; the message gives the quoted text to write. The same case on a field of an MCP object adds this hint to its `unknown-field` warning; anywhere else in a manifest (`_meta`, a `default`, a message, an example) a key written bare in a flow mapping, with no `:` (`{note: hello, world}`), is this warning too (`name: null` is not).",
  "pattern-unsupported":
    "A `pattern` or `patternProperties` key the linear-time engine cannot run (a backreference, a lookahead not right after a leading `^`, the `v` flag's set operations, over 10,000 repetitions): the server would not check it. A warning in a manifest written by `mcpgen pull`, whose server and client then do not check that pattern.",
  "pattern-backtracking":
    "A warning: a pattern that takes exponential or polynomial time in backtracking engines (JavaScript's `RegExp`, used by most MCP clients' validators). The message names the quantifiers and, when there is one, an equivalent pattern without the risk.",
  "pattern-cost":
    "A pattern whose counted repetition makes the linear-time engine slow per character: a `{n,m}` inside a lookbehind with a count (times those around it) of 100 or more is an error (a warning in a manifest written by `mcpgen pull`); elsewhere, 1,000 or more is a warning (RE2JS often absorbs those). `(?<=\\w{0,1000}x)y` costs about 1,000 times a plain pattern per character. The message says past how many characters the server's `maxPatternMs` refuses a string untested. Not reported when the schema's `maxLength` keeps a string's cost under about a million steps (the pattern runs only on strings within it), nor for patterns mcpgen runs on JavaScript's `RegExp`.",
  "unknown-widget": "A tool's `widget:` names no widget.",
  "widget-unused": "A warning: a widget no tool opens.",
  "app-only-tool": "A warning: `visibility: [app]` on a server without widgets, so no view can call the tool.",
  "alias-contradiction":
    "A warning: a ChatGPT alias written by hand in a tool's `_meta` (`openai/widgetAccessible`, `openai/visibility`) that says otherwise than the tool's `visibility` (or the default `[model, app]` of a tool that opens a widget). On a server with widgets mcpgen writes both aliases from `visibility` (`openai/widgetAccessible`: it includes `app`; `openai/visibility: private`: it leaves out `model`), so the hand-written value is replaced; located at the alias.",
  "invalid-csp": "A `csp` entry that is not an origin (a path, a keyword such as `'self'` or `'unsafe-eval'`, a wildcard alone).",
  "widget-build":
    "A widget's entry is missing or outside the manifest's folder, or its code has an error (esbuild's, at its own file:line:col; a missing package with the command that installs it).",
  "auth-verifier": "`auth:` without exactly one way to verify tokens: none of `jwt`, `introspection` and `verifier`, or more than one (located at the second).",
  "insecure-url":
    "A URL of `auth:` (`resource`, an `authorizationServers` entry, `jwt.issuer`, `jwt.jwksUri`, `introspection.endpoint`) that is not https. Plain http is allowed on loopback only: `localhost`, `127.0.0.1`, `[::1]`.",
  "invalid-scope":
    "A scope that breaks the OAuth scope grammar (RFC 6749 §3.3: printable ASCII without space, `\"` and `\\`), in `auth.scopesSupported`, `auth.defaultScopes` or an entry's `scopes`; `gifts.read gifts.write` as one item is two scopes.",
  "unknown-scope":
    'A scope in `auth.defaultScopes` or an entry\'s `scopes` that is not in `auth.scopesSupported` (when that is set), with a "did you mean" when one is close.',
  "offline-access":
    "`offline_access` in `auth.defaultScopes` or an entry's `scopes`: it would be named in a WWW-Authenticate challenge, which MCP servers should not do (an error). In `auth.scopesSupported` a warning: MCP servers should not list it in their Protected Resource Metadata.",
  "auth-not-enabled": "`scopes` or `auth: none` on a tool, resource, resource template or prompt of a server without `auth:`: nothing would check them.",
  "auth-conflict":
    "An entry with both `auth: none` and `scopes`; or a tool that writes `securitySchemes` on a server with `auth:`, where mcpgen writes them from `scopes` and `auth: none`.",
  "invalid-argument":
    "A command-line value mcpgen cannot use, located at the argument as typed: `init --name` that is not a server name (or a folder no name can be made from), `init` into a folder that is not empty (without `--force`), `pull --cwd` that is no folder (`mcpgen: --cwd nowhere: error invalid-argument: no such folder; give the folder ...`).",
  "not-generated":
    "A file mcpgen did not write and would overwrite: in the output folder (`generate`, `init`'s first generate), or the file `pull` would write (without `--force`). Refused; nothing is written.",
  "stale-output":
    "`generate --check`: a generated file (or handler stub) missing, no longer generated or out of date, at its first differing line, with a short diff. `pull --check` of a file that does not exist.",
  "write-failed":
    "The output cannot be written: a file system error, another run writing the same folder, or (with `--check`) a killed run's half-written output; located at the output folder. `pull` that cannot write its file, at the file.",
  "interrupted-run":
    "A warning: a run killed part-way left the output half-written, and this run put it back in order before writing; located at the output folder.",
  "watch-failed": "`generate --watch` cannot watch a folder (changes there are not seen); located at the folder.",
  "pack-failed": "`init` cannot `npm pack` mcpgen for the new project's dependency, located at the folder; give one with `--mcpgen`.",
  "server-failed":
    "`pull`: the server cannot be reached, or answers what pull cannot read; located at the server argument (`mcpgen: -- node server.js: error server-failed: connecting to ... failed: ...`).",
  "too-deep":
    "`pull`: a definition the server serves is nested deeper than `--max-depth` (default 256 levels of objects and arrays; at most 512), named by where it passes the limit; nothing is written.",
  "mock-unmockable":
    "A warning of `mcpgen mock`: a tool whose outputSchema it cannot make a valid value for (a pattern with a lookaround or backreference, keywords that contradict each other, `if`/`then`/`not` it does not follow), nor take from the schema's `examples`, `default` or `const`. The mock answers each call of it with a tool error saying so; add an `examples` entry to the outputSchema, or a tool example with the call's arguments and a `result`.",
  "diff-input": "`diff`: a side that cannot be read or is not a valid manifest (its errors listed under it); located at the side as given.",
  // The lint rules (mcpgen lint): what each finds is in LINT_RULES below.
  "tool-name-length": "Portability lint (`mcpgen lint` only).",
  "tool-name-characters": "Portability lint (`mcpgen lint` only).",
  "input-top-level-composition": "Portability lint (`mcpgen lint` only).",
  "schema-refs": "Portability lint (`mcpgen lint` only).",
  "type-arrays": "Portability lint (`mcpgen lint` only).",
  "write-tool-without-scopes": "Authorization lint (`mcpgen lint` only).",
  "unknown-keyword": "Schema lint (`mcpgen lint` only).",
  "unswitched-tag": "Lists lint (`mcpgen lint` only).",
} as const satisfies Record<string, string>;

export type DiagnosticCode = keyof typeof DIAGNOSTICS;

/**
 * The portability lint rules (`mcpgen lint`), with what each finds: warning codes like the others,
 * listed apart because the config's `lint` key and `mcpgen lint --rule` name them. What each rule
 * checks is in commands/lint/rules.ts.
 */
export const LINT_RULES = {
  "tool-name-length":
    "the tool name with a `mcp__<server>__` prefix (as Claude Code and other clients build it) is over 64 characters, the limit of OpenAI and Anthropic function names",
  "tool-name-characters":
    "the tool name has a `.`, which MCP allows and OpenAI and Anthropic function names do not (characters MCP advises against, a space, are validate's `invalid-name`, reported once)",
  "input-top-level-composition":
    "inputSchema has `anyOf`, `oneOf`, `allOf` or `not` at its root, which the Anthropic API refuses and OpenAI's strict mode does not support",
  "schema-refs":
    "inputSchema uses `$ref`/`$defs`/`definitions`, which some model APIs (Gemini function declarations, several OpenAI-compatible gateways) refuse or ignore",
  "type-arrays": 'a `type` is a list (`[string, "null"]`), which some model APIs (Gemini function declarations) refuse; `anyOf` is understood more widely',
  "write-tool-without-scopes":
    "on a server with `auth:`, a tool that is not `readOnlyHint: true` needs no scope (its `scopes`, else `auth.defaultScopes`, are empty), so any token issued for the server can call it; `auth: none` tools are not reported",
  "unknown-keyword":
    "a JSON Schema (inputSchema, outputSchema, a def) has a key no validator reads: no keyword at all (`nullable`), which JSON Schema allows, or a keyword of the other dialect (`prefixItems` in a draft-07 schema). Typos of keywords are `keyword-typo` errors; `x-` keys, `$comment` and property names are not reported",
  "unswitched-tag":
    'a tag (`tags:` of a tool, resource, template or prompt) that no source file of the project names as a string, so nothing switches (`lists.enableTag("admin")`) or filters (`entry.tags.includes("admin")`) by it. The sources read: .ts, .tsx, .mts, .cts, .js, .mjs and .cjs files under the folder lint runs in, except node_modules, dist, .git, .cache and the files mcpgen generated (at most 20,000 files of up to 1 MiB; past that the rule says nothing)',
} as const;

export type LintRule = keyof typeof LINT_RULES;
export const RULE_NAMES = Object.keys(LINT_RULES) as LintRule[];

/** Every code, in the order of the table. */
export const DIAGNOSTIC_CODES = Object.keys(DIAGNOSTICS) as DiagnosticCode[];

/**
 * The codes that are (or can be) warnings: the ones a config or `lint --rule` may set to off, warn
 * or error. Some are errors in other cases (`unknown-field` for a typo of a known field,
 * `invalid-name` for a name mcpgen cannot use, `keyword-typo`, `required-without-schema`,
 * `pattern-unsupported`, `schema-not-object` and `unsupported-ref` outside pulled manifests):
 * those errors stay errors whatever the level (see applyLevels).
 */
export const WARNING_CODES = [
  "unknown-field",
  "invalid-name",
  "keyword-typo",
  "misplaced-key",
  "suspicious-key",
  "required-without-schema",
  "pattern-unsupported",
  "pattern-backtracking",
  "pattern-cost",
  "schema-not-object",
  "unsupported-ref",
  "widget-unused",
  "app-only-tool",
  "alias-contradiction",
  "offline-access",
  "stub-orphan",
  "runtime-missing",
  "tool-name-length",
  "tool-name-characters",
  "input-top-level-composition",
  "schema-refs",
  "type-arrays",
  "write-tool-without-scopes",
  "unknown-keyword",
  "unswitched-tag",
  "mock-unmockable",
] as const satisfies readonly DiagnosticCode[];

export type WarningCode = (typeof WARNING_CODES)[number];

export interface Diagnostic {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  /** Path of the manifest, relative to the project root, with forward slashes. */
  file: string;
  /** 1-based line and column. */
  line: number;
  col: number;
  /** Where in the manifest, as a readable path: `tools[2].inputSchema.type`. */
  path: string;
  /** How to fix it, when the message does not already say: printed after the message. */
  fix?: string;
}

/**
 * A problem with the command line: where it is, is the argument as typed (`--cwd nowhere`), not
 * a file. Printed by the same reporter as the diagnostics of files.
 */
export interface ArgumentDiagnostic {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  /** The argument as the user typed it: `--name "Bad_Name"`, `--cwd nowhere`. */
  argument: string;
  fix?: string;
  /** More said under it, on its own line, indented: where in what a server serves (pull). */
  detail?: string;
}

/** A path into the parsed manifest: map keys and sequence indexes. */
export type DocPath = readonly (string | number)[];

/** Renders `tools[2].inputSchema.properties.budget` from a DocPath. */
export function formatPath(path: DocPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * `file:line:col: error CODE: message; fix`, the format editors and CI annotators understand; a
 * command-line problem is `mcpgen: ARGUMENT: error CODE: message; fix`.
 */
export function formatDiagnostic(d: Diagnostic | ArgumentDiagnostic): string {
  const where = "argument" in d ? `mcpgen: ${d.argument}` : `${d.file}:${d.line}:${d.col}`;
  const detail = "detail" in d && d.detail ? `\n  ${d.detail}` : "";
  return `${where}: ${d.severity} ${d.code}: ${d.message}${d.fix ? `; ${d.fix}` : ""}${detail}`;
}

/** Sorts by file, then position, then code, so output order never depends on discovery order. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => compare(a.file, b.file) || a.line - b.line || a.col - b.col || compare(a.code, b.code) || compare(a.message, b.message));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === "error");
}

/** What the config or `--rule` makes of a warning code. */
export type Level = "off" | "warn" | "error";

/**
 * Levels for warning codes, in layers: a later layer wins over an earlier one. A layer with
 * `within` (an absolute file or folder) applies to the diagnostics whose file is that one or under it.
 */
export type DiagnosticLevels = readonly { within?: string; codes: Partial<Record<WarningCode, Level>> }[];

/**
 * The diagnostics with their levels applied: a warning set to `off` is dropped, one set to `error`
 * becomes an error. Errors are never touched: no level makes an invalid manifest pass.
 * `cwd` is what diagnostics' files are relative to.
 */
export function applyLevels(list: readonly Diagnostic[], levels: DiagnosticLevels | undefined, cwd: string): Diagnostic[] {
  if (!levels || levels.length === 0) return [...list];
  const out: Diagnostic[] = [];
  for (const d of list) {
    if (d.severity === "error") {
      out.push(d);
      continue;
    }
    let level: Level = "warn";
    let abs: string | undefined;
    for (const layer of levels) {
      const set = layer.codes[d.code as WarningCode];
      if (set === undefined) continue;
      if (layer.within !== undefined) {
        abs ??= path.resolve(cwd, d.file);
        if (abs !== layer.within && !abs.startsWith(layer.within.endsWith(path.sep) ? layer.within : layer.within + path.sep)) continue;
      }
      level = set;
    }
    if (level === "off") continue;
    out.push(level === "error" ? { ...d, severity: "error" } : d);
  }
  return out;
}
