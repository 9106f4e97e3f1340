/**
 * Stubs that import mcpgen's private runtime files (`<out>/_runtime/...`), as the stubs of older
 * mcpgen versions did (`import { ToolError } from "../../../../generated/_runtime/errors.js"`).
 * Those files are the runtime's own layout, which changes between versions; a stub imports the
 * server folder's public entry instead. Each such import is a `stub-private-import` warning at
 * its module specifier, with the import to write instead. The file is the user's: it is read,
 * never edited.
 */
import * as path from "node:path";
import type { ts as TypeScript } from "ts-morph";
import type { Diagnostic } from "../diagnostics.js";
import { RUNTIME_FOLDER } from "../serverFolder/modules.js";
import { publicModuleOf } from "../serverFolder/publicApi.js";
import { toPosix } from "../util/paths.js";
import { serverModule } from "./layout.js";

interface StubTarget {
  /** Absolute output folder (the runtime is in `<out>/_runtime/`). */
  outDir: string;
  /** The server whose folder the stub should import. */
  server: string;
  /** For the paths shown to users. */
  cwd: string;
}

/** A module specifier in the file: where it is, and the import's named bindings when it has them. */
interface Specifier {
  text: string;
  /** Offset of the specifier's opening quote. */
  start: number;
  /** `import type`, for the import to write instead. */
  typeOnly: boolean;
  /** `{ A, type B, C as D }` of an import declaration: each binding's text and the name it imports. */
  names?: { text: string; imported: string }[];
}

/** The `stub-private-import` warnings of one stub file (absolute path `file`, content `text`). */
export async function privateImports(file: string, text: string, target: StubTarget): Promise<Diagnostic[]> {
  // A cheap first look: TypeScript is loaded only for files that name the runtime folder.
  if (!text.includes(RUNTIME_FOLDER)) return [];
  const runtime = path.join(target.outDir, RUNTIME_FOLDER);
  const from = path.dirname(file);
  const out: Diagnostic[] = [];
  const { ts } = await import("ts-morph");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  for (const spec of specifiers(ts, source)) {
    if (!spec.text.startsWith(".")) continue;
    const resolved = path.resolve(from, spec.text);
    if (resolved !== runtime && !resolved.startsWith(runtime + path.sep)) continue;
    const { line, character } = source.getLineAndCharacterOfPosition(spec.start);
    out.push({
      severity: "warning",
      code: "stub-private-import",
      message: `imports ${JSON.stringify(spec.text)}, a file of mcpgen's runtime: its files are not a public API and move between mcpgen versions, so this import breaks when they do`,
      file: toPosix(path.relative(target.cwd, file)),
      line: line + 1,
      col: character + 1,
      path: "",
      fix: `${replacement(spec, from, target)} instead (mcpgen never edits this file)`,
    });
  }
  return out;
}

/** The import to write instead: the same bindings from the server folder's public modules. */
function replacement(spec: Specifier, from: string, target: StubTarget): string {
  const entry = serverModule(from, target.outDir, target.server);
  if (!spec.names) return `import from ${JSON.stringify(entry)}, the server folder's public entry,`;
  const byModule = new Map<string, string[]>();
  const internal: string[] = [];
  for (const { text, imported } of spec.names) {
    const module = publicModuleOf(imported);
    if (!module) {
      internal.push(imported);
      continue;
    }
    const specifier = serverModule(from, target.outDir, target.server, module);
    byModule.set(specifier, [...(byModule.get(specifier) ?? []), text]);
  }
  const imports = [...byModule].map(([module, names]) => `import ${spec.typeOnly ? "type " : ""}{ ${names.join(", ")} } from ${JSON.stringify(module)}`);
  const parts = [imports.join("; ")].filter((p) => p !== "");
  if (internal.length > 0)
    parts.push(`${internal.map((n) => `\`${n}\``).join(", ")} ${internal.length === 1 ? "is" : "are"} not public: use what ${JSON.stringify(entry)} exports`);
  return parts.join("; ");
}

/** Every module specifier of the file: imports, re-exports, `import x = require()`, `import()` and import types. */
function specifiers(ts: typeof TypeScript, source: TypeScript.SourceFile): Specifier[] {
  const out: Specifier[] = [];
  const add = (literal: TypeScript.Node | undefined, typeOnly = false, names?: Specifier["names"]) => {
    if (literal && ts.isStringLiteralLike(literal)) out.push({ text: literal.text, start: literal.getStart(source), typeOnly, ...(names ? { names } : {}) });
  };
  const visit = (node: TypeScript.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      // Only a plain `{ ... }` import is rewritten name by name; a default or namespace import is not.
      const names =
        clause && !clause.name && bindings && ts.isNamedImports(bindings)
          ? bindings.elements.map((e) => ({ text: e.getText(source), imported: (e.propertyName ?? e.name).text }))
          : undefined;
      add(node.moduleSpecifier, clause?.isTypeOnly ?? false, names);
    } else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}
