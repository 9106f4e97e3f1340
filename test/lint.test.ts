/** `mcpgen lint`: each portability rule at its line, levels from the config and --rule, bad input. */
import { describe, expect, it } from "vitest";
import { mcpgen } from "./helpers/cli.js";
import { tempProject } from "./helpers/tmp.js";

const MANIFEST = `server:
  name: very-long-server-name
  version: 1.0.0
defs:
  Id: {type: string}
tools:
  - name: find_every_single_thing_that_matches_this_query_now
    inputSchema:
      type: object
      properties:
        id: {$ref: '#/defs/Id'}
        when: {type: [string, "null"], enum: [[a, b]]}
    outputSchema:
      type: object
      properties:
        also: {type: [string, "null"]}
  - name: files.read
    inputSchema:
      type: object
      anyOf:
        - required: [a]
        - required: [b]
      properties:
        a: {type: string}
        b: {type: string}
  - name: fine
    inputSchema: {type: object, properties: {q: {type: string}}}
`;

describe("mcpgen lint", () => {
  it("reports each rule at its file:line:col as a warning by default, exit 0", () => {
    const dir = tempProject({ "manifests/lt.yaml": MANIFEST });
    const r = mcpgen(["lint"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      'manifests/lt.yaml:7:5: warning tool-name-length: `mcp__very-long-server-name__find_every_single_thing_that_matches_this_query_now` is 79 characters; clients that prefix tool names with mcp__<server>__ pass it to models capped at 64: keep "find_every_single_thing_that_matches_this_query_now" to 36 characters',
      "manifests/lt.yaml:11:14: warning schema-refs: `$ref: #/defs/Id`: inline the definition where the model sees this schema (shared `defs:` of a manifest are sent as `$defs` and `$ref`)",
      'manifests/lt.yaml:12:16: warning type-arrays: `type: ["string","null"]`: write `anyOf: [{type: "string"}, {type: "null"}]` instead',
      'manifests/lt.yaml:17:5: warning tool-name-characters: "files.read" has ".": model APIs accept only letters, digits, _ and - in function names (use _ or -)',
      "manifests/lt.yaml:20:7: warning input-top-level-composition: `anyOf` at the root of inputSchema is refused by the Anthropic API and unsupported by OpenAI's strict mode: make the root one object (optional properties, or one tool per variant)",
    ]);
    expect(r.stdout).toBe("mcpgen: linted 1 manifest: 0 errors, 5 warnings.\n");
  });

  it("warns on patterns that backtrack super-linearly in other engines, as generate does", () => {
    const dir = tempProject({
      "manifests/rx.yaml":
        "server: {name: rx, version: '1'}\ntools:\n  - name: t\n    inputSchema: {type: object, properties: {w: {type: string, pattern: '^(a+)+$'}}}\n",
    });
    const r = mcpgen(["lint"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'manifests/rx.yaml:4:73: warning pattern-backtracking: pattern "^(a+)+$" can take exponential time in backtracking regex engines',
    );
  });

  it("refuses a pattern whose counted lookbehind makes the linear-time engine slow, warns on one elsewhere, unless maxLength bounds them", () => {
    const manifest = [
      "server: {name: rx, version: '1'}",
      "tools:",
      "  - name: t",
      "    inputSchema:",
      "      type: object",
      "      properties:",
      "        a: {type: string, pattern: '(?<=\\w{0,1000}x)y'}",
      "        b: {type: string, maxLength: 64, pattern: '(?<=\\w{0,1000}x)y'}",
      "        c: {type: string, pattern: '(?<=\\w{0,10}x)y'}",
      "        d: {type: string, pattern: '^[a-z]{1,5000}$'}",
      // Costly elsewhere and in a lookbehind: the lookbehind's error, with the whole pattern's cost.
      "        f: {type: string, pattern: '^[a-z]{1,5000}(?<=\\w{0,200}x)y'}",
      "      dependencies:",
      "        a:",
      "          properties:",
      "            e: {type: string, pattern: '^(?:[a-z]{0,2000} )+$'}",
      "",
    ].join("\n");
    const lookbehind =
      'pattern-cost: pattern "(?<=\\\\w{0,1000}x)y" costs mcpgen\'s linear-time engine about 1,000 steps per input character: \\w{0,1000} inside a lookbehind is tried in up to 1,000 ways at every position, so the server and client refuse untested a string past about 1,663 characters (its check would not fit in maxPatternMs, 100 ms by default); give the schema a maxLength (the pattern runs only on strings within it), or lower the count';
    const elsewhere =
      'pattern-cost: pattern "^(?:[a-z]{0,2000} )+$" costs mcpgen\'s linear-time engine about 2,000 steps per input character: [a-z]{0,2000} can be followed in up to 2,000 ways at once, so the server and client refuse untested a string past about 1,289 characters (its check would not fit in maxPatternMs, 100 ms by default); give the schema a maxLength (the pattern runs only on strings within it), or lower the count';
    const written = mcpgen(["lint"], tempProject({ "manifests/rx.yaml": manifest }));
    expect(written.code).toBe(1);
    const both =
      'pattern-cost: pattern "^[a-z]{1,5000}(?<=\\\\w{0,200}x)y" costs mcpgen\'s linear-time engine about 5,200 steps per input character: \\w{0,200} inside a lookbehind is tried in up to 200 ways at every position, so the server and client refuse untested a string past about 1,289 characters (its check would not fit in maxPatternMs, 100 ms by default); give the schema a maxLength (the pattern runs only on strings within it), or lower the count';
    expect(written.stderr.trimEnd().split("\n")).toEqual([
      `manifests/rx.yaml:7:36: error ${lookbehind}`,
      `manifests/rx.yaml:11:36: error ${both}`,
      `manifests/rx.yaml:15:40: warning ${elsewhere}`,
    ]);
    // A pulled manifest is the upstream server's: a warning, and its patterns still run within maxPatternMs.
    const pulled = mcpgen(["lint"], tempProject({ "manifests/rx.yaml": `# Pulled by mcpgen from \`node upstream.js\` (MCP 2025-11-25).\n${manifest}` }));
    expect(pulled.code).toBe(0);
    expect(pulled.stderr).toContain(`manifests/rx.yaml:8:36: warning ${lookbehind}`);
  });

  it("a tool name with a space is reported once (validate's invalid-name), a dot by this rule", () => {
    const dir = tempProject({
      "manifests/s.yaml":
        "server: {name: s, version: '1'}\ntools:\n  - {name: add book, inputSchema: {type: object}}\n  - {name: files.read, inputSchema: {type: object}}\n",
    });
    const lines = mcpgen(["lint"], dir).stderr.trimEnd().split("\n");
    expect(lines.filter((l) => l.includes('"add book"'))).toEqual([
      'manifests/s.yaml:3:12: warning invalid-name: `name` "add book" is not advised: use 1 to 128 characters among A-Z a-z 0-9 _ - . (MCP tool names SHOULD be; some clients refuse others)',
    ]);
    expect(lines.filter((l) => l.includes("tool-name-characters"))).toEqual([
      'manifests/s.yaml:4:6: warning tool-name-characters: "files.read" has ".": model APIs accept only letters, digits, _ and - in function names (use _ or -)',
    ]);
  });

  it("levels come from the config's lint key, then --rule; an error-level finding exits 1", () => {
    const dir = tempProject({
      "manifests/lt.yaml": MANIFEST,
      "mcpgen.config.json": JSON.stringify({ lint: { "tool-name-length": "off", "type-arrays": "error" } }),
    });
    const r = mcpgen(["lint", "--rule", "schema-refs=off", "--rule=tool-name-characters=error"], dir);
    expect(r.code).toBe(1);
    expect(
      r.stderr
        .trimEnd()
        .split("\n")
        .map((l) => l.split(": ").slice(0, 2).join(": ")),
    ).toEqual([
      "manifests/lt.yaml:12:16: error type-arrays",
      "manifests/lt.yaml:17:5: error tool-name-characters",
      "manifests/lt.yaml:20:7: warning input-top-level-composition",
    ]);
    expect(r.stdout).toBe("mcpgen: linted 1 manifest: 2 errors, 1 warning.\n");
  });

  it("refuses unknown rules (config at its line, with a did-you-mean) and bad levels", () => {
    const dir = tempProject({ "manifests/lt.yaml": MANIFEST, "mcpgen.config.yaml": "lint:\n  schema-ref: off\n" });
    const r = mcpgen(["lint"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(
      "mcpgen.config.yaml:2:3: error config: unknown lint rule `schema-ref` (did you mean `schema-refs`?); the rules: tool-name-length, tool-name-characters, input-top-level-composition, schema-refs, type-arrays, write-tool-without-scopes, unknown-keyword, unswitched-tag (other warning codes go under `diagnostics`)",
    );
    const flag = mcpgen(["lint", "manifests", "--rule", "type-arrays=loud", "--config", "none.json"], dir);
    expect(flag.code).toBe(2);
    expect(flag.stderr.split("\n")[0]).toBe('mcpgen: --rule takes CODE=off, CODE=warn or CODE=error, not "type-arrays=loud"');
  });

  it("warns on a tag no source file names (nothing switches or filters by it), at the tag, once per tag; generated files do not count", () => {
    const manifest = [
      "server: {name: tagged, version: 1.0.0}",
      "tools:",
      "  - name: reset",
      "    inputSchema: {type: object}",
      "    tags: [admin, stats]",
      "  - name: stats",
      "    inputSchema: {type: object}",
      "    tags: [stats, beta]",
      "prompts:",
      "  - name: help",
      "    tags: [admni]",
      "    messages: [{role: user, content: {type: text, text: hi}}]",
      "",
    ].join("\n");
    const dir = tempProject({
      "manifests/tagged.yaml": manifest,
      "src/main.ts": 'handle.lists.enableTag("admin");\nconst beta = (e: { tags: string[] }) => e.tags.includes(`beta`);\n',
      // mcpgen's own output names every tag (the ServerLists type): not a switch.
      "generated/tagged/server.ts": '// @generated by mcpgen 0.1.0 from manifests/tagged.yaml.\ntype Tags = "stats" | "admni";\n',
      "node_modules/x/index.js": 'enableTag("stats");\n',
    });
    const r = mcpgen(["lint"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      'manifests/tagged.yaml:5:19: warning unswitched-tag: tag "stats" (on 2 entries) is named by no source file of the project: nothing switches or filters by it — fix: switch it where the server runs (`lists.enableTag("stats")`), or remove it (a typo of another tag?)',
      'manifests/tagged.yaml:11:12: warning unswitched-tag: tag "admni" (on 1 entry) is named by no source file of the project: nothing switches or filters by it — fix: switch it where the server runs (`lists.enableTag("admni")`), or remove it (a typo of another tag?)',
    ]);
    expect(mcpgen(["lint", "--rule", "unswitched-tag=off"], dir).stderr).toBe("");
  });

  it("an invalid manifest is reported as validate would, and not linted", () => {
    const dir = tempProject({ "manifests/bad.yaml": MANIFEST.replace("type: object\n      anyOf", "type: obj\n      anyOf") });
    const r = mcpgen(["lint"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^manifests\/bad\.yaml:19:13: error /);
    expect(r.stderr).not.toContain("tool-name-length");
    expect(r.stdout).toBe("mcpgen: linted 0 manifests: 2 errors, 0 warnings.\n");
  });

  it("--rule takes any warning code, not only the lint rules; a typo gets a did-you-mean and the codes, on one line", () => {
    const dir = tempProject({
      "manifests/rx.yaml":
        "server: {name: rx, version: '1'}\ntools:\n  - name: t\n    inputSchema: {type: object, properties: {w: {type: string, pattern: '^(a+)+$'}}}\n    annotations: {category: x}\n",
    });
    expect(codesOf(mcpgen(["lint"], dir).stderr)).toEqual([
      "manifests/rx.yaml:4:73: warning pattern-backtracking",
      "manifests/rx.yaml:5:19: warning unknown-field",
    ]);
    const off = mcpgen(["lint", "--rule", "unknown-field=off"], dir);
    expect(off.code).toBe(0);
    expect(codesOf(off.stderr)).toEqual(["manifests/rx.yaml:4:73: warning pattern-backtracking"]);
    const error = mcpgen(["lint", "--rule", "unknown-field=off", "--rule", "pattern-backtracking=error"], dir);
    expect(error.code).toBe(1);
    expect(codesOf(error.stderr)).toEqual(["manifests/rx.yaml:4:73: error pattern-backtracking"]);
    const typo = mcpgen(["lint", "--rule", "unknwn-field=off"], dir);
    expect(typo).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'mcpgen: --rule "unknwn-field=off": unknown diagnostic code `unknwn-field` (did you mean `unknown-field`?); the codes that can be set: unknown-field, invalid-name, keyword-typo, misplaced-key, suspicious-key, required-without-schema, pattern-unsupported, pattern-backtracking, pattern-cost, schema-not-object, unsupported-ref, widget-unused, app-only-tool, alias-contradiction, offline-access, stub-orphan, runtime-missing, tool-name-length, tool-name-characters, input-top-level-composition, schema-refs, type-arrays, write-tool-without-scopes, unknown-keyword, unswitched-tag, mock-unmockable\nRun `mcpgen lint --help` for usage.\n',
    });
    expect(mcpgen(["lint", "--rule", "yaml-syntax=off"], dir).stderr.split("\n")[0]).toMatch(
      /^mcpgen: --rule "yaml-syntax=off": `yaml-syntax` is an error, and errors cannot be turned off or down/,
    );
  });

  it("--quiet prints only errors: no warnings, no summary", () => {
    const dir = tempProject({ "manifests/lt.yaml": MANIFEST });
    expect(mcpgen(["lint", "--quiet"], dir)).toEqual({ code: 0, stdout: "", stderr: "" });
    const r = mcpgen(["lint", "--quiet", "--rule", "type-arrays=error"], dir);
    expect(r).toEqual({
      code: 1,
      stdout: "",
      stderr: 'manifests/lt.yaml:12:16: error type-arrays: `type: ["string","null"]`: write `anyOf: [{type: "string"}, {type: "null"}]` instead\n',
    });
  });

  it("the config's `diagnostics` levels apply, per manifest too; --rule wins over them all", () => {
    const dir = tempProject({
      "manifests/lt.yaml": MANIFEST,
      "mcpgen.config.yaml":
        "diagnostics:\n  type-arrays: error\n  manifests/lt.yaml:\n    tool-name-length: off\n    schema-refs: off\n    tool-name-characters: off\n",
    });
    const r = mcpgen(["lint"], dir);
    expect(r.code).toBe(1);
    expect(codesOf(r.stderr)).toEqual(["manifests/lt.yaml:12:16: error type-arrays", "manifests/lt.yaml:20:7: warning input-top-level-composition"]);
    const flag = mcpgen(["lint", "--rule", "schema-refs=warn", "--rule", "type-arrays=off"], dir);
    expect(flag.code).toBe(0);
    expect(codesOf(flag.stderr)).toEqual(["manifests/lt.yaml:11:14: warning schema-refs", "manifests/lt.yaml:20:7: warning input-top-level-composition"]);
  });

  it("in a pulled manifest, speaks to the server's consumer: the finding is upstream's, and what can be done here", () => {
    const dir = tempProject({ "manifests/lt.yaml": `# Pulled by mcpgen from \`node upstream.js\` (MCP 2025-11-25).\n${MANIFEST}` });
    const r = mcpgen(["lint"], dir);
    expect(r.code).toBe(0);
    const upstream =
      "the upstream server sends it so: report it there (the typed client is not affected; a client that passes the schema to such a model API is)";
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      "manifests/lt.yaml:8:5: warning tool-name-length: `mcp__very-long-server-name__find_every_single_thing_that_matches_this_query_now` is 79 characters; clients that prefix tool names with mcp__<server>__ pass it to models capped at 64: the upstream server names this tool: register the server in your client under a name of 6 characters or fewer (the prefix uses that name, `claude mcp add <name> ...`), or report it upstream",
      `manifests/lt.yaml:12:14: warning schema-refs: \`$ref: #/defs/Id\`: some model APIs refuse \`$ref\`; ${upstream}`,
      `manifests/lt.yaml:13:16: warning type-arrays: \`type: ["string","null"]\`: some model APIs refuse a list of types; ${upstream}`,
      'manifests/lt.yaml:18:5: warning tool-name-characters: "files.read" has ".": model APIs accept only letters, digits, _ and - in function names; the upstream server names this tool: report it there (the typed client calls it by its name either way; a client that hands it to a model may rename or drop it)',
      "manifests/lt.yaml:21:7: warning input-top-level-composition: `anyOf` at the root of inputSchema is refused by the Anthropic API and unsupported by OpenAI's strict mode: the upstream server sends it so: report it there (the typed client is not affected; a client that hands the tool to such a model is)",
      'mcpgen: manifests/lt.yaml was pulled from a server you consume: its 5 warnings are about that server. Report them upstream, or turn the codes off for it with "diagnostics": {"manifests/lt.yaml":{"input-top-level-composition":"off","schema-refs":"off","tool-name-characters":"off","tool-name-length":"off","type-arrays":"off"}} in the mcpgen config.',
    ]);
    expect(r.stderr).not.toMatch(/keep "|use _ or -|inline the definition|write `anyOf/);
  });
});

function codesOf(stderr: string): string[] {
  return stderr
    .trimEnd()
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split(": ").slice(0, 2).join(": "));
}
