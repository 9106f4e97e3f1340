/**
 * A generated server compiles no code at run time: the gift server runs under Node's
 * `--disallow-code-generation-from-strings` (what Cloudflare Workers and a strict CSP impose) and
 * still checks arguments and outputs, in both eras, with the words the compiled validators had.
 * The flag is shown to bite: under it, compiling a validator with ajv throws.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const FLAG = "--disallow-code-generation-from-strings";
const SERVER = fileURLToPath(new URL("../servers/gift-stdio.ts", import.meta.url));

describe("a generated server whose validators were printed", () => {
  it("loads neither ajv, the pattern translator nor RE2JS to serve its tools (none of its patterns runs on RE2JS)", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", "--import", fileURLToPath(new URL("../servers/load-log.mjs", import.meta.url)), SERVER],
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1" } as Record<string, string>,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "lazy", version: "1" });
    await client.connect(transport);
    try {
      expect((await client.callTool({ name: "suggest_gifts", arguments: { occasion: "birthday", budget: 20 } })).isError ?? false).toBe(false);
      expect((await client.callTool({ name: "suggest_gifts", arguments: { occasion: 3 } })).isError).toBe(true);
    } finally {
      await client.close();
    }
    const loaded = stderr.split("\n").filter((line) => line.startsWith("loaded "));
    // The log works: the printed validators and the SDK were loaded.
    expect(loaded.some((line) => line.includes("gift-server/validators.ts"))).toBe(true);
    expect(loaded.some((line) => line.includes("@modelcontextprotocol/server"))).toBe(true);
    expect(loaded.filter((line) => /\/ajv\/|regexpp|patternPlans|shared\/ajv\.|\/re2js\//.test(line))).toEqual([]);
  });
});

describe(`a generated server under ${FLAG}`, () => {
  it("refuses ajv's compile there (the flag bites)", () => {
    const script = `import { createAjv } from "./packages/runtime/src/codegen.ts";
try { createAjv(false).compile({ type: "string" }); console.log("compiled"); } catch (error) { console.log(error.name + ": " + error.message); }`;
    const run = spawnSync(process.execPath, [FLAG, "--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
    expect(run.stdout.trim()).toBe("EvalError: Code generation from strings disallowed for this context");
  });

  it.each([
    ["legacy", "legacy"],
    ["auto", "modern"],
  ] as const)("checks arguments and outputs in the %s mode", async (mode, era) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [FLAG, "--import", "tsx", SERVER],
      cwd: path.join(ROOT),
      env: { ...process.env, NO_COLOR: "1" } as Record<string, string>,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "no-eval", version: "1" }, { versionNegotiation: { mode } });
    await client.connect(transport);
    try {
      expect(client.getProtocolEra()).toBe(era);
      const good = await client.callTool({ name: "suggest_gifts", arguments: { occasion: "birthday", budget: 20 } });
      expect(good.isError ?? false).toBe(false);
      expect(good.structuredContent).toEqual({
        gifts: [
          { name: "Dice set", price: 20 },
          { name: "Book: The Hobbit", price: 15 },
        ],
      });
      const bad = await client.callTool({ name: "suggest_gifts", arguments: { occasion: 3, budget: -1, extra: true } });
      expect(bad.isError).toBe(true);
      expect(bad.content).toEqual([{ type: "text", text: expect.stringContaining("Property 'occasion' must be string") as unknown }]);
      expect(JSON.stringify(bad.content)).toContain("Property 'budget' must be >= 0");
      expect(stderr).not.toContain("EvalError");
    } finally {
      await client.close();
    }
  });
});
