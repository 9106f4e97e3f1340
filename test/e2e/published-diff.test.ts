/**
 * `mcpgen diff` on a real version pair whose schemas changed JSON Schema dialect: mongodb-mcp-server
 * 2.1.1 (zod-to-json-schema, draft-07) -> 3.0.4 (zod 4, 2020-12), installed from npm into a
 * temporary folder and pulled over stdio (its tools list without a MongoDB connection). Before
 * dialects were compared by meaning this pair gave 65 rows breaking for clients, 51 of them only
 * the `$schema` change; the real changes must remain. Slow (a real npm install of ~220 MB without optional dependencies, about
 * a minute), so it runs once.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Difference } from "../../src/commands/diff/classify.js";
import { mcpgen } from "../helpers/cli.js";
import { binCommand, installPackages, NPM_FREE_ENV, workFolder } from "../helpers/published.js";

const OLD = "2.1.1";
const NEW = "3.0.4";
const work = workFolder("mcpgen-published-diff-");
const env = Object.fromEntries(Object.entries(NPM_FREE_ENV).filter(([k]) => !k.startsWith("MDB_MCP_")));

beforeAll(() => {
  // Each version under an npm alias; without optional dependencies (220 MB instead of 440 MB, the same zod).
  installPackages(work, [`mongodb-old@npm:mongodb-mcp-server@${OLD}`, `mongodb-new@npm:mongodb-mcp-server@${NEW}`], { flags: ["--omit=optional"], env });
  for (const [alias, file] of [
    ["mongodb-old", "old.yaml"],
    ["mongodb-new", "new.yaml"],
  ] as const) {
    const r = mcpgen(["pull", "-o", file, "--env", "MDB_MCP_TELEMETRY=disabled", "--", ...binCommand(work, alias)], work);
    if (r.code !== 0) throw new Error(`pull ${alias} failed: ${r.stderr}`);
  }
}, 300_000);

describe(`mongodb-mcp-server ${OLD} -> ${NEW}`, () => {
  it("pulled both, in different dialects", () => {
    const old = readFileSync(path.join(work, "old.yaml"), "utf8");
    const now = readFileSync(path.join(work, "new.yaml"), "utf8");
    expect(old).toContain("$schema: http://json-schema.org/draft-07/schema#");
    expect(now).toContain("$schema: https://json-schema.org/draft/2020-12/schema");
    expect(now).not.toContain("draft-07");
  });

  it("the dialect change is informative rows only; the real changes remain breaking", () => {
    const r = mcpgen(["diff", "old.yaml", "new.yaml", "--format", "json"], work);
    expect(r.code).toBe(1);
    const { summary, changes } = JSON.parse(r.stdout) as { summary: { breakingClients: number }; changes: Difference[] };
    const dialect = changes.filter((c) => c.path.endsWith(".$schema"));
    // 27 tools, most with an outputSchema: one row per schema, each saying nothing changes meaning.
    expect(dialect.length).toBeGreaterThan(40);
    for (const c of dialect) {
      expect(c).toMatchObject({
        change: expect.stringMatching(/^(input|output)-dialect-changed$/),
        clients: false,
        servers: false,
        message: "JSON Schema dialect draft-07 -> 2020-12: no keyword used here changes meaning",
      });
    }
    const breaking = changes.filter((c) => c.clients);
    expect(breaking.every((c) => !c.message.includes("dialect"))).toBe(true);
    // Real narrowings of inputs, as the two versions define them.
    const brief = breaking.map((c) => `${c.name} ${c.path}: ${c.message}`);
    expect(brief).toEqual(
      expect.arrayContaining([
        "mongodb-logs inputSchema.properties.limit.type: accepts only integers now",
        "mongodb-logs inputSchema.properties.limit.maximum: maximum 1024 added",
        "drop-index inputSchema.properties.indexName.minLength: minLength 1 added",
        "aggregate-db inputSchema.properties.pipeline.minItems: minItems 1 added",
      ]),
    );
    // 65 before; what is left is real (bounds added, anyOf/oneOf branches changed).
    expect(summary.breakingClients).toBeLessThanOrEqual(14);
    // `taskSupport: forbidden` (2025-11-25 list) and no execution (2026-07-28 list) are the same.
    expect(changes.filter((c) => c.change === "execution-changed")).toEqual([]);
  });

  it("the table lines up, long paths included", () => {
    const r = mcpgen(["diff", "old.yaml", "new.yaml"], work);
    const rows = r.stdout.split("\n").filter((l) => /^ {2}(BREAKING|BEHAVIOUR|ok|CLIENTS) /.test(l));
    expect(rows.length).toBeGreaterThan(100);
    const changeColumn = rows[0]!.indexOf("CHANGE");
    for (const row of rows.slice(1)) expect(row.slice(changeColumn - 2, changeColumn), row).toBe("  ");
    for (const row of rows.slice(1)) expect(row[changeColumn], row).not.toBe(" ");
    // Paths past 48 characters, where the table used to slip.
    const { changes } = JSON.parse(mcpgen(["diff", "old.yaml", "new.yaml", "--format", "json"], work).stdout) as { changes: Difference[] };
    expect(changes.some((c) => c.path.length > 48)).toBe(true);
  });
});
