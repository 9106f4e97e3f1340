/**
 * The gift widget (examples/gift-server) generated with its `sdk` set to `mcpgen` or `ext-apps`,
 * from a copy of the example's manifests in a temporary project: its HTML and `_meta.ui.csp`.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { ServerDefinition } from "@mcpgen/runtime/shared";
import { runPipeline } from "../../../src/generator/pipeline.js";
import { ROOT } from "../cli.js";
import { tempProject } from "../tmp.js";

export async function buildGiftWidget(sdk: "mcpgen" | "ext-apps"): Promise<{ html: string; csp: { [key: string]: string[] } }> {
  const dir = tempProject();
  cpSync(path.join(ROOT, "examples", "gift-server", "manifests"), path.join(dir, "manifests"), { recursive: true });
  const manifest = path.join(dir, "manifests", "gift-server.yaml");
  const entry = "    entry: widgets/gifts.ts\n";
  const text = readFileSync(manifest, "utf8");
  if (!text.includes(entry)) throw new Error(`${manifest} no longer has "${entry.trim()}"`);
  writeFileSync(manifest, text.replace(entry, `${entry}    sdk: ${sdk}\n`));
  const run = await runPipeline({ manifests: [path.join(dir, "manifests")], out: path.join(dir, "generated"), cwd: dir, mode: "write", cache: false });
  const errors = run.diagnostics.filter((d) => d.severity === "error");
  if (errors.length) throw new Error(errors.map((d) => `${d.file}:${d.line}:${d.col} ${d.message}`).join("\n"));
  // What the generated server serves: its definition's content of the widget's resource.
  const { definition } = (await import(path.join(dir, "generated/gift-server/definition.ts"))) as { definition: ServerDefinition };
  const content = definition.resources.find((r) => r.resource.uri === "ui://widget/gifts.html")?.content;
  if (!content || !("text" in content)) throw new Error("no HTML for ui://widget/gifts.html");
  const ui = (content._meta as { ui?: { csp?: { [key: string]: string[] } } } | undefined)?.ui;
  return { html: content.text, csp: ui?.csp ?? {} };
}
