/**
 * Published servers with quirks, pinned, installed from npm, run over stdio: each pulls (exit 0,
 * with the warnings the quirk calls for), the client-only and the full output compile under
 * `strict`, and a typed call reaches each live server.
 *
 * - mcp-server-kubernetes 4.1.7 declares `resources` but answers resources/templates/list with
 *   -32601 Method not found (it lists without a cluster; its `ping` tool needs none).
 * - @playwright/mcp 0.0.30 serves every inputSchema as `{"$schema": "...draft-07..."}`, with no
 *   `type` (installed with --ignore-scripts: no browser is downloaded; `browser_close` needs none).
 *
 * Slow (a real npm install), so it runs once, in sequence.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { serveToo } from "../helpers/manifests.js";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mcpgen } from "../helpers/cli.js";
import { appFolder, binCommand, installPackages, NPM_FREE_ENV as env, workFolder } from "../helpers/published.js";
import { tsc, writeTsconfig } from "../helpers/tsc.js";

const PACKAGES = { kubernetes: "mcp-server-kubernetes@4.1.7", playwright: "@playwright/mcp@0.0.30" };
const work = workFolder("mcpgen-published-");
const servers = path.join(work, "servers");
const app = path.join(work, "app");

const kubernetes = () => binCommand(servers, "mcp-server-kubernetes");
const playwright = () => binCommand(servers, "@playwright/mcp");

beforeAll(() => {
  installPackages(servers, Object.values(PACKAGES), { timeoutMs: 300_000 });
  appFolder(app);
}, 360_000);

/** tsc over use.ts and generated/ under the strict flags, the libraries' declarations checked too, into dist/. */
function compile(): void {
  writeTsconfig(app, { include: ["use.ts", "generated/**/*.ts"], compilerOptions: { noEmit: false, outDir: "dist", skipLibCheck: false } });
  writeFileSync(path.join(app, "use.ts"), USE);
  expect(tsc(app)).toEqual({ status: 0, output: "" });
}

describe("published servers with quirks", () => {
  it("mcp-server-kubernetes: no resources/templates/list is no templates, with a warning", () => {
    const r = mcpgen(["pull", "-o", "manifests/kubernetes.yaml", "--", ...kubernetes()], app);
    expect(r.stderr).toBe(
      `mcpgen: warning: kubernetes (\`${kubernetes().join(" ")}\`) declares \`resources\` but answers resources/templates/list with -32601 Method not found: taken as no resource templates\n`,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      "mcpgen: wrote manifests/kubernetes.yaml from kubernetes (23 tools, 5 resources, 0 templates, 1 prompt, MCP 2025-11-25). It is client-only (its header says so): `mcpgen generate` writes its types, client and fixtures, no server and no handler stubs.\n",
    );
  }, 120_000);

  it("@playwright/mcp: inputSchemas without type are warnings, said once for the 25 tools", () => {
    const r = mcpgen(["pull", "-o", "manifests/playwright.yaml", "--", ...playwright()], app);
    expect(r.stderr).toBe(
      [
        `mcpgen: -- ${playwright().join(" ")}: warning schema-not-object: inputSchema has no type, not "object" as MCP asks; the upstream server serves it so: it is kept as it came, and the arguments are typed as an open record (any properties)`,
        "  in what Playwright serves: inputSchema of 25 tools: `browser_close`, `browser_resize`, `browser_console_messages`, `browser_handle_dialog`, `browser_file_upload` and 20 more",
        "",
      ].join("\n"),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      "mcpgen: wrote manifests/playwright.yaml from Playwright (25 tools, 0 resources, 0 templates, 0 prompts, MCP 2025-11-25). It is client-only (its header says so): `mcpgen generate` writes its types, client and fixtures, no server and no handler stubs.\n",
    );
    // Kept as served.
    expect(readFileSync(path.join(app, "manifests/playwright.yaml"), "utf8")).toContain(
      "  - name: browser_close\n    description: Close the page\n    inputSchema:\n      $schema: http://json-schema.org/draft-07/schema#\n",
    );
  }, 120_000);

  it("generate --client-only compiles under strict, and typed calls reach both live servers", () => {
    const gen = mcpgen(["generate", "--client-only"], app);
    expect(gen.code).toBe(0);
    expect(gen.stderr).toMatch(
      /^manifests\/playwright\.yaml:\d+:\d+: warning schema-not-object: inputSchema has no type, not "object" as MCP asks; the upstream server serves it so/m,
    );
    expect(readFileSync(path.join(app, "generated/playwright/types.ts"), "utf8")).toContain(
      "export interface BrowserCloseInput {\n  [key: string]: unknown;\n}",
    );
    compile();
    const out = execFileSync(process.execPath, ["dist/use.js", JSON.stringify({ kubernetes: kubernetes(), playwright: playwright() })], {
      cwd: app,
      env,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(JSON.parse(out)).toEqual({
      closed: 'No open pages available. Use the "browser_navigate" tool to navigate to a page first.',
      ping: { content: [] },
    });
  }, 180_000);

  it("generate (server and client) compiles under strict too", () => {
    // A server too: each manifest's client-only header line deleted, as the header says.
    for (const name of ["kubernetes", "playwright"]) serveToo(path.join(app, "manifests", `${name}.yaml`));
    const gen = mcpgen(["generate"], app);
    expect(gen.code).toBe(0);
    expect(readFileSync(path.join(app, "generated/playwright/server.ts"), "utf8")).toContain("browser_close: ");
    compile();
  }, 180_000);
});

const USE = `import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createClient as kubernetesClient } from "./generated/kubernetes/index.js";
import { createClient as playwrightClient } from "./generated/playwright/index.js";

const commands = JSON.parse(process.argv[2]!) as { kubernetes: string[]; playwright: string[] };

async function connect(cmd: string[]): Promise<Client> {
  const sdk = new Client({ name: "use", version: "1.0.0" });
  await sdk.connect(new StdioClientTransport({ command: cmd[0]!, args: cmd.slice(1), stderr: "ignore" }));
  return sdk;
}

const text = (result: { content: { type: string }[] }) => {
  const first = result.content[0];
  return first && first.type === "text" ? (first as { type: "text"; text: string }).text : "";
};

const kubernetes = kubernetesClient(await connect(commands.kubernetes));
const playwright = playwrightClient(await connect(commands.playwright));
try {
  // An open record: any properties type-check, none are needed.
  const closed = text(await playwright.browserClose({}));
  const ping = await kubernetes.ping();
  process.stdout.write(JSON.stringify({ closed, ping }));
} finally {
  await Promise.all([kubernetes.sdk.close(), playwright.sdk.close()]);
}
`;
