/** Client-only output: types, client and fixtures, no server files, and a runtime that compiles without the server SDK. */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { mcpgen, ROOT } from "./helpers/cli.js";
import { linkNodeModules, tempProject } from "./helpers/tmp.js";
import { tsc, writeTsconfig } from "./helpers/tsc.js";
import { version } from "../src/common/version.js";
import { GIFT_WITHOUT_WIDGET } from "./helpers/manifests.js";

const GIFT = GIFT_WITHOUT_WIDGET;
const RAW = fileURLToPath(new URL("./servers/raw-stdio.mjs", import.meta.url));
const NOTES = readFileSync(path.join(ROOT, "manifests/notes-server.yaml"), "utf8");
const list = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();

describe("client-only output", () => {
  it("--client-only writes no server files, removes those of a previous run, and imports the client's runtime only", () => {
    const dir = tempProject({ "package.json": '{"type":"module"}', "manifests/gift-server.yaml": GIFT });
    expect(mcpgen(["generate", "--stubs", "src/handlers"], dir).code).toBe(0);
    expect(list(path.join(dir, "generated"))).toContain("gift-server/server.ts");
    const fixtures = ["tools-list.json", "2026-07-28/tools-list.json"].map((f) => readFileSync(path.join(dir, "generated/gift-server/fixtures", f), "utf8"));
    const r = mcpgen(["generate", "--client-only"], dir);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    // The runtime is the package: the client's and the shared entries only.
    const written = list(path.join(dir, "generated"));
    const imported = written
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) => [...readFileSync(path.join(dir, "generated", f), "utf8").matchAll(/ from "(@mcpgen\/runtime\/[^"]+)"/g)].map((m) => m[1]!));
    expect([...new Set(imported)].sort()).toEqual(["@mcpgen/runtime/client", "@mcpgen/runtime/shared"]);
    expect(written).toEqual([
      "gift-server/client.ts",
      "gift-server/definition.ts",
      "gift-server/fixtures/2026-07-28/prompts-list.json",
      "gift-server/fixtures/2026-07-28/resource-templates-list.json",
      "gift-server/fixtures/2026-07-28/resources-list.json",
      "gift-server/fixtures/2026-07-28/server-discover.json",
      "gift-server/fixtures/2026-07-28/tools-list.json",
      "gift-server/fixtures/prompts-list.json",
      "gift-server/fixtures/resource-templates-list.json",
      "gift-server/fixtures/resources-list.json",
      "gift-server/fixtures/tools-list.json",
      "gift-server/index.ts",
      "gift-server/types.ts",
    ]);
    // Every header names the command that made it, flags that matter included.
    for (const f of ["gift-server/client.ts", "gift-server/types.ts"])
      expect(readFileSync(path.join(dir, "generated", f), "utf8").split("\n")[0], f).toMatch(
        / Do not edit: regenerate with `mcpgen generate --client-only`\.$/,
      );
    // The stubs a user wrote are theirs: never removed.
    expect(list(path.join(dir, "src/handlers"))).not.toEqual([]);
    // The fixtures are the full server's: client-only changes no byte of them.
    ["tools-list.json", "2026-07-28/tools-list.json"].forEach((f, i) =>
      expect(readFileSync(path.join(dir, "generated/gift-server/fixtures", f), "utf8")).toBe(fixtures[i]),
    );
    // It compiles under strict with the client SDK only: no @modelcontextprotocol/server import.
    for (const f of list(path.join(dir, "generated")).filter((f) => f.endsWith(".ts")))
      expect(readFileSync(path.join(dir, "generated", f), "utf8"), f).not.toMatch(/(from |import\()"@modelcontextprotocol\/(server|sdk)/);
    linkNodeModules(dir);
    // Without Node's types, the libraries' declarations checked too.
    writeTsconfig(dir, { include: ["generated/**/*.ts"], compilerOptions: { types: [], skipLibCheck: false } });
    expect(tsc(dir)).toEqual({ status: 0, output: "" });

    // Vendor mode: the copy holds the client's runtime and what it shares, nothing of the server's or the widget's.
    expect(mcpgen(["generate", "--client-only", "--runtime", "vendor"], dir)).toMatchObject({ code: 0, stderr: "" });
    const copied = list(path.join(dir, "generated/_runtime"));
    expect([...new Set(copied.map((f) => f.split("/")[0]))]).toEqual(["client", "shared"]);
    expect(copied).toContain("client/index.ts");
    expect(tsc(dir)).toEqual({ status: 0, output: "" });
  }, 60_000);

  it("a pulled manifest in a project with its own server: client-only by its header, no stubs, no orphans; --client-only is refused", () => {
    const dir = tempProject({
      "package.json": '{"type":"module"}',
      "manifests/gift-server.yaml": GIFT,
      "mcpgen.config.json": JSON.stringify({ stubs: "src/handlers" }),
    });
    expect(mcpgen(["generate"], dir).code).toBe(0);
    const handlers = list(path.join(dir, "src/handlers"));
    expect(handlers.length).toBeGreaterThan(0);
    // The guide's workflow: pull a server you consume, then generate (the build's prebuild does).
    const pulled = mcpgen(["pull", "-o", "manifests/raw-server.yaml", "--", process.execPath, RAW], dir);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain("It is client-only (its header says so)");
    expect(readFileSync(path.join(dir, "manifests/raw-server.yaml"), "utf8")).toContain("\n# Client-only: generate writes a typed client for this server");
    const gen = mcpgen(["generate"], dir);
    expect(gen.code).toBe(0);
    // (The raw server's own quirks are warned of; no handler is called an orphan.)
    expect(gen.stderr).not.toContain("stub-orphan");
    const files = list(path.join(dir, "generated"));
    expect(files).toContain("gift-server/server.ts");
    expect(files).toContain("raw-server/client.ts");
    expect(files.filter((f) => f.startsWith("raw-server/") && !f.includes("/fixtures/"))).toEqual([
      "raw-server/client.ts",
      "raw-server/definition.ts",
      "raw-server/index.ts",
      "raw-server/types.ts",
    ]);
    // No stubs for the pulled server, and the user's handlers untouched.
    expect(list(path.join(dir, "src/handlers"))).toEqual(handlers);

    // --client-only names no server: it would make the user's server a client only.
    const refused = mcpgen(["generate", "--client-only"], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `manifests/gift-server.yaml:4:9: error client-only: --client-only would make server "gift-server", whose ${handlers.length} handler files are in src/handlers/gift-server/, a client only (its server files removed): a manifest written by mcpgen pull is client-only already, without the flag; to make others client-only, name them in the config ("clientOnly": ["raw-server"])`,
    );
    expect(refused.stderr).toContain("nothing written");
    expect(list(path.join(dir, "generated"))).toEqual(files);
    // The other way the guide shows: the config names the servers; the user's stays whole, with no orphan warning.
    writeFileSync(path.join(dir, "mcpgen.config.json"), JSON.stringify({ stubs: "src/handlers", clientOnly: ["raw-server"] }));
    const named = mcpgen(["generate"], dir);
    expect(named.code).toBe(0);
    expect(named.stderr).not.toContain("stub-orphan");
    expect(list(path.join(dir, "generated"))).toEqual(files);
  });

  it("config clientOnly: [names] makes those servers client-only and leaves the others whole", () => {
    const dir = tempProject({
      "package.json": "{}",
      "manifests/gift-server.yaml": GIFT,
      "manifests/notes-server.yaml": NOTES,
      "manifests/notes-readme.md": readFileSync(path.join(ROOT, "manifests/notes-readme.md"), "utf8"),
      "mcpgen.config.json": JSON.stringify({ clientOnly: ["notes-server"] }),
    });
    expect(mcpgen(["generate"], dir)).toMatchObject({ code: 0, stderr: "" });
    const files = list(path.join(dir, "generated"));
    expect(files).toContain("gift-server/server.ts");
    expect(readFileSync(path.join(dir, "generated/gift-server/server.ts"), "utf8")).toContain('from "@mcpgen/runtime/server"');
    expect(files.filter((f) => f.startsWith("notes-server/") && !f.includes("fixtures/"))).toEqual([
      "notes-server/client.ts",
      "notes-server/definition.ts",
      "notes-server/index.ts",
      "notes-server/types.ts",
    ]);
    expect(readFileSync(path.join(dir, "generated/notes-server/index.ts"), "utf8")).not.toContain("createServer");
  });

  it("headers name the command with the flags of the run (paths relative to the project), not those that only say how to run", () => {
    const dir = tempProject({ "package.json": "{}", "api/gift.yaml": GIFT, "conf/mcpgen.yaml": "clientOnly: true\n" });
    expect(mcpgen(["generate", "api", "--config", "conf/mcpgen.yaml", "--out", path.join(dir, "src/gen"), "--quiet"], dir)).toMatchObject({
      code: 0,
      stderr: "",
    });
    const first = readFileSync(path.join(dir, "src/gen/gift-server/client.ts"), "utf8").split("\n")[0];
    expect(first).toBe(
      `// @generated by mcpgen ${version()} from api/gift.yaml. Do not edit: regenerate with \`mcpgen generate api --config conf/mcpgen.yaml --out src/gen\`.`,
    );
    // Run again as the header says, with --check: up to date.
    expect(mcpgen(["generate", "api", "--config", "conf/mcpgen.yaml", "--out", "src/gen", "--check"], dir)).toMatchObject({ code: 0 });
  });

  it("a bad clientOnly value is a config error at its line", () => {
    const dir = tempProject({ "manifests/gift-server.yaml": GIFT, "mcpgen.config.yaml": "clientOnly: yes please\n" });
    expect(mcpgen(["generate"], dir)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("mcpgen.config.yaml:1:13: error invalid-type: `clientOnly` must be true, false, or a list of server names"),
    });
  });
});
