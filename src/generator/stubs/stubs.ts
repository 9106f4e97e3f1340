/**
 * User-owned handler stubs: created once, merged after, never clobbered.
 *
 * - A missing stub file is created from its template (templates/stubs/<kind>.ts.hbs): a handler
 *   typed `ToolHandler<"name">` (or its kin), imported from the server folder's public entry.
 * - An existing file that exports the expected name is left byte for byte, whatever its shape
 *   (`export const` as the stubs write it, or an `export function` of the user's: handlers.ts
 *   imports either the same way).
 * - An existing file that lacks it (renamed or deleted by hand) gets the stub's handler appended,
 *   and the imports it needs added after the file's own, everything else untouched.
 * - A stub file whose tool, resource, template or prompt left the manifest is reported as a
 *   warning with its file:line, and never deleted.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import type { Diagnostic } from "../../common/diagnostics.js";
import type { ServerModel } from "../model/types.js";
import { stringLiteral } from "../print/literal.js";
import { renderTemplate } from "../print/templates.js";
import type { Change } from "../plan/plan.js";
import { modulePath, serverModule, STUB_FOLDERS, stubEntries, type StubEntry } from "../model/stubLayout.js";
import { toPosix } from "../../common/paths.js";

interface StubOptions {
  /** Absolute stub folder; each server's stubs go to `<stubs>/<server>/`. */
  stubsDir: string;
  /** Absolute output folder (the generated code the stubs import). */
  outDir: string;
  /** Folder of template overrides. */
  templatesDir?: string;
  /** For the paths shown to users. */
  cwd: string;
}

interface StubPlan {
  changes: Change[];
  diagnostics: Diagnostic[];
}

/** The import path from a server's output folder to its stub folder (for handlers.ts). */
export function stubImportBase(stubsDir: string, outDir: string, server: string): string {
  return modulePath(path.join(outDir, server), path.join(stubsDir, server));
}

export async function planStubs(models: readonly ServerModel[], options: StubOptions): Promise<StubPlan> {
  const plan: StubPlan = { changes: [], diagnostics: [] };
  for (const model of models) {
    // A client-only server has no handlers here: no stubs, and its tools are no orphans' reason.
    if (model.options.clientOnly) continue;
    const dir = path.join(options.stubsDir, model.name);
    const entries = stubEntries(model);
    for (const entry of entries) {
      const abs = path.join(dir, entry.file);
      const display = toPosix(path.relative(options.cwd, abs));
      const stub = renderStub(model, entry, abs, options);
      if (!existsSync(abs)) {
        plan.changes.push({ kind: "create", file: abs, after: stub, display, stub: true });
        continue;
      }
      const text = readFileSync(abs, "utf8");
      if (exportsName(text, entry.functionName)) continue;
      const merged = await appendStub(text, stub, entry.functionName);
      plan.changes.push({ kind: "update", file: abs, before: text, after: merged, display, stub: true });
    }
    plan.diagnostics.push(...(await orphans(dir, entries, model, options.cwd)));
  }
  return plan;
}

/**
 * A stub from its template. Stubs import only the server folder's public entry (`index.js`):
 * `ToolHandler<"name">` and its kin, and ToolError.
 */
function renderStub(model: ServerModel, entry: StubEntry, abs: string, options: StubOptions): string {
  const from = path.dirname(abs);
  const common = {
    server: model.name,
    functionName: entry.functionName,
    indexModule: stringLiteral(serverModule(from, options.outDir, model.name)),
    notImplemented: stringLiteral(`${describeEntry(entry)} is not implemented yet: write it in ${toPosix(path.relative(options.cwd, abs))}`),
  };
  switch (entry.kind) {
    case "tool":
      return renderTemplate("stubs/tool.ts.hbs", { ...common, toolName: stringLiteral(entry.key) }, options.templatesDir);
    case "resource":
      return renderTemplate("stubs/resource.ts.hbs", { ...common, resourceName: stringLiteral(entry.key) }, options.templatesDir);
    case "resource-template":
      return renderTemplate("stubs/resource-template.ts.hbs", { ...common, templateName: stringLiteral(entry.key) }, options.templatesDir);
    case "verifier":
      return renderTemplate("stubs/verifier.ts.hbs", common, options.templatesDir);
    case "prompt":
      return renderTemplate("stubs/prompt.ts.hbs", { ...common, promptName: stringLiteral(entry.key) }, options.templatesDir);
  }
}

function describeEntry(entry: StubEntry): string {
  const kinds: Record<StubEntry["kind"], string> = {
    tool: "Tool",
    resource: "Resource",
    "resource-template": "Resource template",
    prompt: "Prompt",
    verifier: "The token verifier",
  };
  return entry.kind === "verifier" ? kinds.verifier : `${kinds[entry.kind]} ${entry.key}`;
}

/**
 * A cheap first look that avoids loading TypeScript for files that already have their export:
 * `export function name`, `export async function name`, `export const name` or `export { name }`.
 */
function exportsName(text: string, name: string): boolean {
  const id = name.replace(/\$/g, "\\$");
  return new RegExp(
    `^\\s*export\\s+(?:async\\s+)?(?:function\\s*\\*?\\s*|const\\s+|let\\s+|var\\s+)${id}\\b|^\\s*export\\s*\\{[^}]*\\b${id}\\b[^}]*\\}`,
    "m",
  ).test(text);
}

/**
 * Adds the stub's function to a user's file that lacks it: imports the stub needs and the file
 * does not have go in new lines after the file's last import; the function goes at the end.
 * Nothing else in the file changes.
 */
async function appendStub(userText: string, stubText: string, functionName: string): Promise<string> {
  const { Project } = await import("ts-morph");
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: false } });
  const user = project.createSourceFile("user.ts", userText);
  const stub = project.createSourceFile("stub.ts", stubText);

  const known = new Set<string>();
  for (const decl of user.getImportDeclarations()) {
    for (const spec of decl.getNamedImports()) known.add(spec.getAliasNode()?.getText() ?? spec.getName());
    const def = decl.getDefaultImport();
    if (def) known.add(def.getText());
    const ns = decl.getNamespaceImport();
    if (ns) known.add(ns.getText());
  }
  const newImports: string[] = [];
  for (const decl of stub.getImportDeclarations()) {
    const missing = decl.getNamedImports().filter((s) => !known.has(s.getName()));
    if (missing.length === 0) continue;
    const typeOnly = decl.isTypeOnly();
    newImports.push(`import ${typeOnly ? "type " : ""}{ ${missing.map((s) => s.getText()).join(", ")} } from ${decl.getModuleSpecifier().getText()};`);
  }
  // The handler: a const in the built-in templates, perhaps a function in a user's override.
  const handler = stub.getVariableStatement(functionName) ?? stub.getFunction(functionName);
  const fnText = handler ? handler.getFullText().replace(/^\s*\n/, "") : "";

  let out = userText;
  if (newImports.length > 0) {
    const lastImport = user.getImportDeclarations().at(-1);
    const at = lastImport ? lastImport.getEnd() : 0;
    const insert = lastImport ? `\n${newImports.join("\n")}` : `${newImports.join("\n")}\n`;
    out = out.slice(0, at) + insert + out.slice(at);
  }
  const sep = out.endsWith("\n") ? "\n" : "\n\n";
  return `${out}${sep}${fnText.trimEnd()}\n`;
}

/** Stub files in the server's stub folder that no longer match anything in the manifest. */
async function orphans(dir: string, entries: StubEntry[], model: ServerModel, cwd: string): Promise<Diagnostic[]> {
  const wanted = new Set(entries.map((e) => e.file));
  const out: Diagnostic[] = [];
  for (const folder of STUB_FOLDERS) {
    const abs = path.join(dir, folder);
    if (!existsSync(abs)) continue;
    for (const name of readdirSync(abs).sort()) {
      if (!name.endsWith(".ts") || name.endsWith(".d.ts")) continue;
      const rel = `${folder}/${name}`;
      if (wanted.has(rel)) continue;
      const file = path.join(abs, name);
      const text = readFileSync(file, "utf8");
      const { line, col, exported } = await firstExport(text);
      out.push({
        severity: "warning",
        code: "stub-orphan",
        message: `handler ${exported ?? rel} is not used: nothing in ${model.manifestFile} needs ${rel} any more (removed or renamed?); move its code to the new handler, then delete the file`,
        file: toPosix(path.relative(cwd, file)),
        line,
        col,
        path: "",
      });
    }
  }
  return out;
}

async function firstExport(text: string): Promise<{ line: number; col: number; exported?: string }> {
  const { Project } = await import("ts-morph");
  const source = new Project({ useInMemoryFileSystem: true }).createSourceFile("orphan.ts", text);
  for (const [name, decls] of source.getExportedDeclarations()) {
    const decl = decls[0];
    if (!decl) continue;
    const { line, column } = source.getLineAndColumnAtPos(decl.getStart());
    return { line, col: column, exported: name };
  }
  return { line: 1, col: 1 };
}
