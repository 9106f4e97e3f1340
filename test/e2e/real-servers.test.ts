/**
 * Published servers, installed from npm, run over stdio: pull each into a manifest, generate a
 * client-only package, compile it with a caller under `strict`, and call the servers' tools
 * through the typed clients. Re-pulling is byte-identical; `pull --check` notices a change.
 * Slow (a real npm install), so it runs once, in sequence.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mcpgen } from "../helpers/cli.js";
import { appFolder, binCommand, NPM_FREE_ENV as env, referenceServers, workFolder } from "../helpers/published.js";
import { tsc, writeTsconfig } from "../helpers/tsc.js";

const work = workFolder("mcpgen-real-");
let servers: string;
const app = path.join(work, "app");
const memoryFile = path.join(work, "memory.jsonl");
const shared = path.join(work, "shared");

/** The command that starts each server, as a user would give it to `mcpgen pull --`. */
function command(pkg: string, ...args: string[]): string[] {
  return [...binCommand(servers, `@modelcontextprotocol/${pkg}`), ...args];
}

const PULLS = {
  everything: () => ["-o", "manifests/everything.yaml", "--", ...command("server-everything")],
  memory: () => ["-o", "manifests/memory.yaml", "--env", `MEMORY_FILE_PATH=${memoryFile}`, "--", ...command("server-memory")],
  filesystem: () => ["-o", "manifests/filesystem.yaml", "--", ...command("server-filesystem", shared)],
};

beforeAll(() => {
  mkdirSync(shared);
  writeFileSync(path.join(shared, "hello.txt"), "hello from a real server\n");
  servers = referenceServers();
  appFolder(app);
}, 300_000);

describe("published servers over stdio", () => {
  it("pulls each into a manifest that names its source", () => {
    for (const [name, args] of Object.entries(PULLS)) {
      const r = mcpgen(["pull", ...args()], app);
      expect(r.stderr, name).toBe("");
      expect(r.code, name).toBe(0);
      expect(r.stdout, name).toMatch(new RegExp(`^mcpgen: wrote manifests/${name}\\.yaml from \\S+ \\(\\d+ tools?, `));
    }
    const everything = readFileSync(path.join(app, "manifests/everything.yaml"), "utf8");
    expect(everything.split("\n")[0]).toMatch(/^# Pulled by mcpgen from `.*server-everything.*` \(MCP 2025-11-25\)\.$/);
    // Its name is not a folder name: kept as it is, with a folder beside it.
    expect(everything).toContain("server:\n  name: mcp-servers/everything\n  folder: mcp-servers-everything\n");
    // The env value is never written.
    const memory = readFileSync(path.join(app, "manifests/memory.yaml"), "utf8");
    expect(memory).not.toContain(memoryFile);
    expect(memory).toContain("--env MEMORY_FILE_PATH=...");
  }, 120_000);

  it("re-pulls byte for byte, and pull --check agrees", () => {
    for (const [name, args] of Object.entries(PULLS)) {
      const before = readFileSync(path.join(app, `manifests/${name}.yaml`), "utf8");
      const again = mcpgen(["pull", ...args()], app);
      expect(again.stdout, name).toMatch(/is up to date with/);
      expect(readFileSync(path.join(app, `manifests/${name}.yaml`), "utf8"), name).toBe(before);
      const check = mcpgen(["pull", "--check", ...args()], app);
      expect(check.stderr, name).toBe("");
      expect(check.code, name).toBe(0);
    }
  }, 120_000);

  it("pull --check exits 1 and lists what the server has that the manifest lacks", () => {
    const file = path.join(app, "manifests/memory.yaml");
    const text = readFileSync(file, "utf8");
    // Drop the read_graph tool from the manifest, as if the server had added it since.
    const start = text.indexOf("  - name: read_graph\n");
    expect(start).toBeGreaterThan(0);
    const end = text.indexOf("\n  - name: ", start + 1);
    writeFileSync(file, text.slice(0, start) + text.slice(end + 1));
    const r = mcpgen(["pull", "--check", ...PULLS.memory()], app);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/memory-server differs from manifests\/memory\.yaml/);
    expect(r.stderr).toMatch(/ok\s+BREAKING\s+tool read_graph\s+-\s+tool-added/);
    writeFileSync(file, text);
  }, 60_000);

  it("generates a client-only package that compiles under strict and calls the real tools", () => {
    const gen = mcpgen(["generate", "--client-only"], app);
    expect(gen.stderr).toBe("");
    expect(gen.code).toBe(0);
    // No server code and no server SDK import anywhere in the output.
    const files = execFileSync("find", ["generated", "-type", "f"], { cwd: app, encoding: "utf8" }).trim().split("\n").sort();
    expect(files.filter((f) => /\/(server|serve|handlers)\.ts$/.test(f))).toEqual([]);
    for (const f of files.filter((f) => f.endsWith(".ts"))) expect(readFileSync(path.join(app, f), "utf8"), f).not.toContain("@modelcontextprotocol/server");

    // The libraries' declarations checked too; compiled into dist/ to run.
    writeTsconfig(app, { include: ["use.ts", "generated/**/*.ts"], compilerOptions: { noEmit: false, outDir: "dist", skipLibCheck: false } });
    writeFileSync(path.join(app, "use.ts"), USE);
    expect(tsc(app)).toEqual({ status: 0, output: "" });
    const out = execFileSync(
      process.execPath,
      [
        "dist/use.js",
        JSON.stringify({
          everything: command("server-everything"),
          memory: command("server-memory"),
          filesystem: command("server-filesystem", shared),
          memoryFile,
        }),
      ],
      { cwd: app, env, encoding: "utf8", timeout: 60_000 },
    );
    expect(JSON.parse(out)).toEqual({
      echo: "Echo: hi",
      sum: "The sum of 2 and 3 is 5.",
      weather: { temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) },
      entities: ["Ada"],
      graph: { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }], relations: [] },
      allowed: expect.stringContaining(shared),
      text: "hello from a real server\n",
      // A task-only tool (execution.taskSupport "required", 2025-11-25 tasks): the plain method
      // starts the task and waits; tasks.start gives the handle.
      research: expect.stringContaining("# Research Report: mcp"),
      researchTask: { id: "string", status: "working", report: expect.stringContaining("# Research Report: tasks") },
    });
  }, 180_000);

  it("rejects a wrong argument at compile time", () => {
    writeFileSync(
      path.join(app, "bad.ts"),
      `import type { McpServersEverythingClient } from "./generated/mcp-servers-everything/index.js";
declare const everything: McpServersEverythingClient;
await everything.getStructuredContent({ location: "Paris" });
`,
    );
    writeTsconfig(app, { file: "tsconfig.bad.json", include: ["bad.ts", "generated/**/*.ts"], compilerOptions: { skipLibCheck: false } });
    const bad = tsc(app, { project: "tsconfig.bad.json" });
    expect(bad.status).not.toBe(0);
    // The three cities the schema's enum allows (TypeScript 7 may print a union in another order).
    const city = '"(?:New York|Chicago|Los Angeles)"';
    expect(bad.output).toMatch(new RegExp(`bad\\.ts\\(3,\\d+\\): error TS2322: Type '"Paris"' is not assignable to type '${city} \\| ${city} \\| ${city}'`));
  }, 60_000);
});

const USE = `import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createClient as everythingClient } from "./generated/mcp-servers-everything/index.js";
import { createClient as memoryClient } from "./generated/memory-server/index.js";
import { createClient as filesystemClient } from "./generated/secure-filesystem-server/index.js";

const commands = JSON.parse(process.argv[2]!) as { everything: string[]; memory: string[]; filesystem: string[]; memoryFile: string };

async function connect(cmd: string[], env: Record<string, string> = {}): Promise<Client> {
  const sdk = new Client({ name: "use", version: "1.0.0" });
  const base = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  await sdk.connect(new StdioClientTransport({ command: cmd[0]!, args: cmd.slice(1), env: { ...base, ...env }, stderr: "ignore" }));
  return sdk;
}

function text(result: { content: { type: string }[] }): string {
  const first = result.content[0];
  return first && first.type === "text" ? (first as { type: "text"; text: string }).text : "";
}

const everything = everythingClient(await connect(commands.everything));
const memory = memoryClient(await connect(commands.memory, { MEMORY_FILE_PATH: commands.memoryFile }));
const filesystem = filesystemClient(await connect(commands.filesystem));
try {
  const echo = text(await everything.echo({ message: "hi" }));
  const sum = text(await everything.getSum({ a: 2, b: 3 }));
  const weather = await everything.getStructuredContent({ location: "Chicago" });
  const created = await memory.createEntities({ entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] });
  const graph = await memory.readGraph();
  const allowed = await filesystem.listAllowedDirectories();
  const file = await filesystem.readTextFile({ path: commands.filesystem[2] + "/hello.txt" });
  const task = await everything.tasks.start("simulate-research-query", { topic: "tasks", ambiguous: false });
  const createdStatus = task.status;
  const [research, report] = await Promise.all([everything.simulateResearchQuery({ topic: "mcp", ambiguous: false }), task.result()]);
  const result = {
    echo,
    sum,
    weather: { temperature: weather.temperature, conditions: weather.conditions, humidity: weather.humidity },
    entities: created.entities.map((e) => e.name),
    graph,
    allowed: allowed.content,
    text: file.content,
    research: text(research),
    researchTask: { id: typeof task.taskId, status: createdStatus, report: text(report) },
  };
  process.stdout.write(JSON.stringify(result));
} finally {
  await Promise.all([everything.sdk.close(), memory.sdk.close(), filesystem.sdk.close()]);
}
`;
