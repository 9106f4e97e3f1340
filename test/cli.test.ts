/** The `mcpgen` command as users run it: exit codes, messages, --check, and what gets written. */
import { readFileSync, statSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { mcpgen, ROOT } from "./helpers/cli.js";
import { linkNodeModules, tempProject } from "./helpers/tmp.js";
import { GIFT_WITHOUT_WIDGET } from "./helpers/manifests.js";

const GIFT = GIFT_WITHOUT_WIDGET;
/** The files of the gift server's output folder (the runtime is the @mcpgen/runtime package). */
const GIFT_FILES = 17;

describe("mcpgen CLI", () => {
  it("prints help with exit 0, and usage errors with exit 2", () => {
    const dir = tempProject();
    const help = mcpgen(["--help"], dir);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("mcpgen generate [--manifests PATH...] [--out DIR] [--stubs DIR] [--config FILE]");
    expect(help.stdout).toContain("mcpgen init [DIR] [--name NAME] [--target node|deno|bun|lambda|workers] [--mcpgen SPEC] [--widget] [--auth] [--force]");
  });

  it("says a usage error on one line, then where the usage is, the same way for every command (exit 2)", () => {
    const COMMANDS = "generate, validate, init, pull, diff, lint, mock, trace, check, explain, dev or auth";
    const dir = tempProject();
    const cases: [string[], string, string][] = [
      [[], `missing command: ${COMMANDS}`, "mcpgen --help"],
      [["frobnicate"], `unknown command "frobnicate": use ${COMMANDS}`, "mcpgen --help"],
      [["build"], `unknown command "build": did you mean \`mcpgen generate\`? (commands: ${COMMANDS})`, "mcpgen --help"],
      [["watch"], `unknown command "watch": did you mean \`mcpgen generate --watch\`? (commands: ${COMMANDS})`, "mcpgen --help"],
      [["valdiate"], `unknown command "valdiate": did you mean \`mcpgen validate\`? (commands: ${COMMANDS})`, "mcpgen --help"],
      [["serve"], `unknown command "serve": did you mean \`mcpgen dev\`? (commands: ${COMMANDS})`, "mcpgen --help"],
      [["dev", "--port", "http"], '--port takes a port from 0 to 65535, not "http"', "mcpgen dev --help"],
      [["generate", "--stub", "src"], "unknown option --stub (did you mean --stubs?)", "mcpgen generate --help"],
      [["generate", "--stubs-dir", "src"], "unknown option --stubs-dir (did you mean --stubs?)", "mcpgen generate --help"],
      [["lint", "--quite"], "unknown option --quite for lint (did you mean --quiet?)", "mcpgen lint --help"],
      [["generate", "--nope"], "unknown option --nope", "mcpgen generate --help"],
      [["generate", "--out"], "--out needs a folder", "mcpgen generate --help"],
      [["validate", "--check"], "--check applies to generate", "mcpgen validate --help"],
      [["generate", "--manifests"], "--manifests needs at least one file or folder", "mcpgen generate --help"],
      [["init", "--nope"], "unknown option --nope for init", "mcpgen init --help"],
      [["lint", "--nope"], "unknown option --nope for lint", "mcpgen lint --help"],
      [["diff", "a.yaml"], "diff takes two sides, OLD and NEW; got 1", "mcpgen diff --help"],
      [["pull", "--era", "future", "--", "x"], '--era is auto, legacy or modern, not "future"', "mcpgen pull --help"],
      [["generate", "--out", "a", "--out", "b"], "--out given twice", "mcpgen generate --help"],
      [["generate", "--check=yes"], "--check takes no value", "mcpgen generate --help"],
      [["pull", "--cwd", "--", "x"], "--cwd needs a folder", "mcpgen pull --help"],
      [["lint", "--rule"], "--rule needs CODE=off|warn|error", "mcpgen lint --help"],
      [["mock", "--seed"], "--seed needs an integer", "mcpgen mock --help"],
      [["mock", "--fail-rate", "half"], '--fail-rate takes a fraction from 0 to 1 (0.25 fails one call in four), not "half"', "mcpgen mock --help"],
      [["mock", "--nope"], "unknown option --nope for mock", "mcpgen mock --help"],
      [["trace"], "trace needs a server: -- and the command that starts it, or --http URL", "mcpgen trace --help"],
      [["trace", "--listen", "6277", "--", "x"], "--listen goes with --http", "mcpgen trace --help"],
      [["trace", "--http", "ftp://x/mcp"], "--http takes an http or https URL, not ftp:", "mcpgen trace --help"],
      [
        ["trace", "--http", "http://x/mcp", "--listen", "host:99999"],
        '--listen takes HOST:PORT or PORT (0: a free port), not "host:99999"',
        "mcpgen trace --help",
      ],
      [["trace", "--http", "http://x/mcp", "--", "node"], "trace takes --http URL or -- COMMAND, not both", "mcpgen trace --help"],
    ];
    for (const [args, message, help] of cases) {
      const r = mcpgen(args, dir);
      expect(r, args.join(" ")).toEqual({ code: 2, stdout: "", stderr: `mcpgen: ${message}\nRun \`${help}\` for usage.\n` });
    }
  });

  it("`mcpgen help` and `help COMMAND` print the helps as --help does; the usage names every command's options; explain takes -32602 and diagnostic codes", () => {
    const dir = tempProject();
    const top = mcpgen(["--help"], dir);
    expect(mcpgen(["help"], dir)).toEqual(top);
    expect(mcpgen(["help", "check"], dir)).toEqual(mcpgen(["check", "--help"], dir));
    expect(mcpgen(["help", "chek"], dir)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'mcpgen: unknown command "chek": did you mean `mcpgen check`? (commands: generate, validate, init, pull, diff, lint, mock, trace, check, explain, dev or auth)\nRun `mcpgen --help` for usage.\n',
    });
    // The usage lines leave out no option a new user looks for.
    for (const part of [
      "check LOG [--manifests PATH...] [--input FORMAT]",
      "[--fail-rate R] [--config FILE] [--quiet]",
      "[--mock] [--no-typecheck] [--config FILE]",
      "mcpgen auth token [--scope SCOPE...]",
    ])
      expect(top.stdout).toContain(part);
    const code = mcpgen(["explain", "-32602"], dir);
    expect(code.code).toBe(0);
    expect(code.stdout).toMatch(/^-32602 Invalid params: /);
    const diagnostic = mcpgen(["explain", "keyword-typo"], dir);
    expect(diagnostic.code).toBe(0);
    expect(diagnostic.stdout).toMatch(
      /^keyword-typo \(a diagnostic of generate, validate and lint; a config's diagnostics key sets the level of its warnings\)\n\nA key of a JSON Schema/,
    );
    expect(mcpgen(["explain", "duplicate-server"], dir).stdout).toMatch(/^duplicate-server \(a diagnostic of generate, validate and lint; always an error\)/);
  });

  it("prints each command's help from its options table: every option it takes, and none it refuses", () => {
    const dir = tempProject();
    for (const command of ["generate", "validate", "init", "pull", "diff", "lint", "mock", "trace"]) {
      const r = mcpgen([command, "--help"], dir);
      expect(r.code, command).toBe(0);
      expect(r.stdout, command).toMatch(
        new RegExp(`^mcpgen ${command}: [^]*\nUsage:\n  mcpgen ${command} [^]*\nOptions:\n[^]*  -h, --help  [^]*\nExit codes: `),
      );
    }
    const generate = mcpgen(["generate", "--help"], dir).stdout;
    for (const option of ["--manifests PATH...", "--out DIR", "--stubs DIR", "--client-only", "--config FILE", "--check", "--watch", "--quiet", "--no-cache"])
      expect(generate).toContain(`\n  ${option} `);
    const validate = mcpgen(["validate", "--help"], dir).stdout;
    expect(validate).toContain("\n  --no-cache ");
    for (const option of ["--stubs", "--check", "--watch", "--client-only"]) expect(validate).not.toContain(`\n  ${option} `);
    expect(mcpgen(["generate", "--out", "--help"], dir)).toMatchObject({ code: 0, stdout: generate });
  });

  it("prints its version", () => {
    const r = mcpgen(["--version"], tempProject());
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version);
  });

  it("generates from the default manifests/ into generated/, then reports a no-op", () => {
    const dir = tempProject({ "package.json": "{}", "manifests/gift-server.yaml": GIFT });
    const first = mcpgen(["generate"], dir);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`mcpgen: 1 server -> generated/: ${GIFT_FILES} written, 0 unchanged.\n`);
    const types = path.join(dir, "generated/gift-server/types.ts");
    // The output is the committed example, byte for byte (server.ts: the widget, left out here, does not change it).
    expect(readFileSync(path.join(dir, "generated/gift-server/server.ts"), "utf8")).toBe(
      readFileSync(path.join(ROOT, "examples/gift-server/generated/gift-server/server.ts"), "utf8"),
    );
    const before = statSync(types).mtimeMs;
    const second = mcpgen(["generate"], dir);
    expect(second.stdout).toBe(`mcpgen: 1 server -> generated/: 0 written, ${GIFT_FILES} unchanged.\n`);
    expect(statSync(types).mtimeMs).toBe(before);
  });

  it("--check exits 0 when up to date and 1 with a short diff per stale file, writing nothing", () => {
    const dir = tempProject({ "package.json": "{}", "m/gift.yaml": GIFT });
    expect(mcpgen(["generate", "--manifests", "m", "--out", "out"], dir).code).toBe(0);
    const ok = mcpgen(["generate", "--manifests", "m", "--out", "out", "--check"], dir);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(`mcpgen: out/ is up to date (1 server, ${GIFT_FILES} files).\n`);

    writeFileSync(path.join(dir, "m/gift.yaml"), GIFT.replace("title: Gift ideas generator", "title: Gift finder"));
    const fixture = path.join(dir, "out/gift-server/fixtures/tools-list.json");
    const fixtureBefore = readFileSync(fixture, "utf8");
    const stale = mcpgen(["generate", "--manifests", "m", "--out", "out", "--check"], dir);
    expect(stale.code).toBe(1);
    // Each stale file is a diagnostic at its first differing line, the line its diff starts at.
    const at =
      /^out\/gift-server\/fixtures\/tools-list\.json:(\d+):1: error stale-output: stale \(out of date\); run mcpgen generate m --out out\n {4}@@ line (\d+) @@\n/m.exec(
        stale.stderr,
      );
    expect(at?.[1]).toBeDefined();
    expect(Number(at![1])).toBeGreaterThan(1);
    expect(at![1]).toBe(at![2]);
    expect(stale.stderr).toContain('    -      "title": "Gift ideas generator",\n    +      "title": "Gift finder",');
    expect(stale.stderr).toMatch(/^out\/gift-server\/definition\.ts:\d+:1: error stale-output: stale \(out of date\)/m);
    expect(stale.stderr).toMatch(/mcpgen: 3 stale files; run mcpgen generate m --out out\.\n$/);
    expect(readFileSync(fixture, "utf8")).toBe(fixtureBefore);
  });

  it("removes files it no longer generates, but never a file it did not write", () => {
    const dir = tempProject({ "package.json": "{}", "m/gift.yaml": GIFT });
    expect(mcpgen(["generate", "--manifests", "m", "--out", "out"], dir).code).toBe(0);
    writeFileSync(path.join(dir, "out/gift-server/NOTES.md"), "mine");
    writeFileSync(path.join(dir, "m/gift.yaml"), GIFT.replace(/\nprompts:[\s\S]*$/, "\n"));
    const r = mcpgen(["generate", "--manifests", "m", "--out", "out"], dir);
    expect(r.stdout).toMatch(/, 2 removed\.\n$/);
    expect(existsSync(path.join(dir, "out/gift-server/fixtures/2026-07-28/prompts-list.json"))).toBe(false);
    expect(existsSync(path.join(dir, "out/gift-server/fixtures/prompts-list.json"))).toBe(false);
    expect(readFileSync(path.join(dir, "out/gift-server/NOTES.md"), "utf8")).toBe("mine");
  });

  it("refuses to overwrite a file mcpgen did not write", () => {
    const dir = tempProject({ "package.json": "{}", "m/gift.yaml": GIFT });
    mkdirSync(path.join(dir, "out/gift-server"), { recursive: true });
    writeFileSync(path.join(dir, "out/gift-server/server.ts"), "// my own server\n");
    const r = mcpgen(["generate", "--manifests", "m", "--out", "out"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `out/gift-server/server.ts:1:1: error not-generated: this file was not written by mcpgen (no "// @generated by mcpgen" header); refusing to overwrite it; move it out of out/ or pick another --out\n`,
    );
    expect(readFileSync(path.join(dir, "out/gift-server/server.ts"), "utf8")).toBe("// my own server\n");
    expect(existsSync(path.join(dir, "out/gift-server/types.ts"))).toBe(false);
  });

  it("validate reports every problem with exit 1 and writes nothing; a valid manifest exits 0", () => {
    const dir = tempProject({
      "package.json": "{}",
      "manifests/bad.yaml": "server: {name: Bad, version: 1}\ntools: [{name: x}]\n",
      "manifests/gift.yaml": GIFT,
    });
    const r = mcpgen(["validate"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        "manifests/bad.yaml:1:16: error invalid-name: `name` \"Bad\" is not a folder name: use lowercase letters, digits and '-', starting with a letter or digit (it names the output folder), or keep it and add `folder:` with such a name",
        "manifests/bad.yaml:1:30: error invalid-type: `version` must be a string, not number 1 (quote it in YAML)",
        "manifests/bad.yaml:2:9: error missing-field: a tool is missing the required field `inputSchema`",
        "mcpgen: 3 errors; nothing written.",
        "",
      ].join("\n"),
    );
    expect(existsSync(path.join(dir, "generated"))).toBe(false);
    expect(mcpgen(["validate", "manifests/gift.yaml"], dir)).toEqual({ code: 0, stdout: "mcpgen: 1 server valid.\n", stderr: "" });
  });

  it("reports a write failure in words with exit 1, not as a crash", () => {
    const dir = tempProject({ "package.json": "{}", "m/gift.yaml": GIFT, out: "a file, not a folder" });
    const r = mcpgen(["generate", "--manifests", "m", "--out", "out"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^mcpgen: out\/: error write-failed: cannot write .*out\/gift-server.*: (ENOTDIR|EEXIST) /);
    expect(r.stderr).not.toContain("internal error");
  });

  it("reports a missing manifest path as a diagnostic, not a crash", () => {
    const r = mcpgen(["generate", "--manifests", "nowhere.yaml"], tempProject());
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "nowhere.yaml:1:1: error file-unreadable: no such manifest file or folder: nowhere.yaml; run `mcpgen init` to start a project here, or name your manifests with --manifests PATH (or `manifests` in mcpgen.config.json)\nmcpgen: 1 error; nothing written.\n",
    );
  });

  it("in a folder without manifests, points at init: no manifests/ is an error, an empty one is said in the summary", () => {
    const dir = tempProject();
    const missing = mcpgen(["generate"], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr.split("\n")[0]).toBe(
      "manifests:1:1: error file-unreadable: no such manifest file or folder: manifests; run `mcpgen init` to start a project here, or name your manifests with --manifests PATH (or `manifests` in mcpgen.config.json)",
    );
    mkdirSync(path.join(dir, "manifests"));
    const empty = mcpgen(["generate"], dir);
    expect(empty).toMatchObject({
      code: 0,
      stdout: "mcpgen: 0 servers (no .yaml manifest in manifests/: add one, or run `mcpgen init` to start a project) -> generated/: 0 written, 0 unchanged.\n",
    });
  });
});

/** A valid manifest with two `unknown-field` warnings (vendor keys in a tool's annotations). */
const WARNED =
  "server: {name: w, version: '1'}\ntools:\n  - name: a\n    inputSchema: {type: object}\n    annotations: {category: input, readOnlyHint: true}\n  - name: b\n    inputSchema: {type: object}\n    annotations: {category: nav}\n";
const WARNINGS = [
  "manifests/w.yaml:5:19: warning unknown-field: field `category` in `annotations` is not one mcpgen knows; it is served as it is (known fields: title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint)",
  "manifests/w.yaml:8:19: warning unknown-field: field `category` in `annotations` is not one mcpgen knows; it is served as it is (known fields: title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint)",
];

describe("warnings on the command line", () => {
  it("--quiet hides warnings and the summary of generate and validate; errors are still printed", () => {
    const dir = tempProject({ "package.json": "{}", "manifests/w.yaml": WARNED });
    expect(mcpgen(["validate"], dir)).toEqual({ code: 0, stdout: "mcpgen: 1 server valid.\n", stderr: `${WARNINGS.join("\n")}\n` });
    expect(mcpgen(["validate", "--quiet"], dir)).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(mcpgen(["generate", "--quiet"], dir)).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(existsSync(path.join(dir, "generated/w/server.ts"))).toBe(true);
    writeFileSync(path.join(dir, "manifests/bad.yaml"), "server: {name: bad, version: 1}\n");
    const bad = mcpgen(["generate", "--quiet"], dir);
    expect(bad).toEqual({
      code: 1,
      stdout: "",
      stderr: "manifests/bad.yaml:1:30: error invalid-type: `version` must be a string, not number 1 (quote it in YAML)\nmcpgen: 1 error; nothing written.\n",
    });
  });

  it("a run that skips an unchanged manifest counts its warnings on one line instead of repeating them", () => {
    const dir = tempProject({ "package.json": "{}", "manifests/w.yaml": WARNED });
    // node_modules makes the run records exist (they live in node_modules/.cache/mcpgen).
    linkNodeModules(dir);
    const first = mcpgen(["generate"], dir);
    expect(first.stderr).toBe(`${WARNINGS.join("\n")}\n`);
    const second = mcpgen(["generate"], dir);
    expect(second.stdout).toMatch(/: 0 written, /);
    expect(second.stderr).toBe("mcpgen: 2 warnings in 1 unchanged manifest, printed when it was last read; run mcpgen lint to list them.\n");
    expect(mcpgen(["generate", "--quiet"], dir)).toEqual({ code: 0, stdout: "", stderr: "" });
    // Every run that reads the manifest prints them in full: validate, --no-cache, and after an edit.
    expect(mcpgen(["validate"], dir).stderr).toBe(first.stderr);
    expect(mcpgen(["generate", "--no-cache"], dir).stderr).toBe(first.stderr);
    writeFileSync(path.join(dir, "manifests/w.yaml"), WARNED.replace("category: nav", "category: nav, title: B"));
    expect(mcpgen(["generate"], dir).stderr).toBe(`${WARNINGS.join("\n")}\n`);
    expect(mcpgen(["lint"], dir).stderr).toBe(`${WARNINGS.join("\n")}\n`);
  }, 60_000);

  it("after the warnings of a pulled manifest, one line says they are its server's and how to turn them off", () => {
    const pulled = `# Pulled by mcpgen from \`node upstream.js\` (MCP 2025-11-25).\n${WARNED}`;
    const dir = tempProject({ "package.json": "{}", "manifests/w.yaml": pulled, "manifests/own.yaml": WARNED.replace("name: w,", "name: own,") });
    const r = mcpgen(["validate"], dir);
    expect(r.code).toBe(0);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    expect(lines.slice(0, 4).every((l) => / warning unknown-field: /.test(l))).toBe(true);
    expect(lines[4]).toBe(
      'mcpgen: manifests/w.yaml was pulled from a server you consume: its 2 warnings are about that server. Report them upstream, or turn the code off for it with "diagnostics": {"manifests/w.yaml":{"unknown-field":"off"}} in the mcpgen config.',
    );
    // That entry, as the line gives it, does it.
    writeFileSync(path.join(dir, "mcpgen.config.json"), JSON.stringify({ diagnostics: { "manifests/w.yaml": { "unknown-field": "off" } } }));
    expect(mcpgen(["validate"], dir).stderr).toBe(`${lines.slice(0, 2).join("\n")}\n`);
  });
});
