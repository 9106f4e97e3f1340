/**
 * Strings are data, never code: a manifest whose strings would run code at import time if pasted
 * unescaped generates code that compiles, runs nothing, and serves the manifest's strings exactly.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { runPipeline } from "../../src/generator/pipeline.js";
import { rawSession } from "../helpers/wire.js";
import { linkNodeModules, tempProject } from "../helpers/tmp.js";
import { tsc, writeTsconfig } from "../helpers/tsc.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MANIFEST = path.join(ROOT, "test/fixtures/manifests/payloads.yaml");

describe("hostile strings", () => {
  it("compile, run no code at import, and reach the wire byte for byte", async () => {
    const dir = tempProject({ "package.json": '{"type":"module"}' });
    writeTsconfig(dir, { include: ["out"] });
    linkNodeModules(dir);
    const result = await runPipeline({ manifests: [MANIFEST], out: "out", cwd: dir, mode: "write", cache: false });
    expect(result.diagnostics).toEqual([]);
    expect(tsc(dir)).toEqual({ status: 0, output: "" });

    const g = globalThis as { __pwned?: unknown };
    delete g.__pwned;
    const generated = await import(pathToFileURL(path.join(dir, "out/payloads/index.ts")).href);
    const types = readFileSync(path.join(dir, "out/payloads/types.ts"), "utf8");
    expect(g.__pwned).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Every comment opened in the generated types is closed where mcpgen closed it.
    expect(types).not.toMatch(/\*\/ globalThis/);

    const manifest = parse(readFileSync(MANIFEST, "utf8"));
    const s = await rawSession(generated.createServerFactory({ tools: { [manifest.tools[0].name]: () => "ok" } }));
    const tools = (await s.request("tools/list")).result!.tools as Record<string, any>[];
    const { examples: _examples, ...wireTool } = manifest.tools[0];
    expect(tools).toEqual([wireTool]);
    expect(Object.hasOwn(tools[0]!._meta, "__proto__")).toBe(true);
    expect(s.init!.result!.instructions).toBe(manifest.server.instructions);
    expect(s.init!.result!.serverInfo).toEqual({ name: "payloads", version: "1", title: manifest.server.title });
    const read = await s.request("resources/read", { uri: "x://a?b=</script>" });
    expect(read.result).toEqual({ contents: [{ uri: "x://a?b=</script>", text: "</script><script>globalThis.__pwned = 7</script>" }] });
    const prompt = await s.request("prompts/get", { name: "p", arguments: { tone: "${globalThis.__pwned = 9}" } });
    expect((prompt.result!.messages as { content: { text: string } }[])[0]!.content.text).toBe(
      'Be ${globalThis.__pwned = 9}: `${globalThis.__pwned = 8}` \\ " \u2028 */',
    );
    expect(g.__pwned).toBeUndefined();
    await s.close();
  }, 60_000);
});
