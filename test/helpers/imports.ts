/**
 * The import graph of a source folder, read with the TypeScript parser: what the layer tests
 * (packages/runtime/test/layers.test.ts, test/unit/layers.test.ts) check their rules and cycles on.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";

/** One import of a file. `file` is relative to the folder read (`server/node/http.ts`). */
export interface SourceImport {
  file: string;
  line: number;
  /** The specifier as written; undefined for `import(name)` with a name that is not a literal. */
  specifier: string | undefined;
  /** `import type` / `export type` / `typeof import(...)`: nothing is loaded at run time. */
  typeOnly: boolean;
  dynamic: boolean;
}

/** The imports of one file: static, re-exports, `typeof import()` types and dynamic `import()`. */
export function importsOf(file: string, text: string): SourceImport[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: SourceImport[] = [];
  const add = (node: ts.Node, specifier: ts.Node | undefined, typeOnly: boolean, dynamic: boolean) =>
    found.push({
      file,
      line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
      specifier: specifier && ts.isStringLiteralLike(specifier) ? specifier.text : undefined,
      typeOnly,
      dynamic,
    });
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node, node.moduleSpecifier, node.importClause?.isTypeOnly === true, false);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) add(node, node.moduleSpecifier, node.isTypeOnly, false);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal, true, false);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], false, true);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every TypeScript file under `root` (paths relative to it, with `/`, sorted), and their imports. */
export function readSources(root: string, skip: (file: string) => boolean = () => false): { files: string[]; imports: SourceImport[] } {
  const files = readdirSync(root, { recursive: true, encoding: "utf8" })
    .map((f) => f.split(path.sep).join("/"))
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts") && !skip(f))
    .sort();
  return { files, imports: files.flatMap((f) => importsOf(f, readFileSync(path.join(root, f), "utf8"))) };
}

/** The file a relative specifier names (`../x.js` from `a/b.ts` is `x.ts`), or undefined for a package or a file not in `files`. */
function targetOf(imp: SourceImport, files: ReadonlySet<string>): string | undefined {
  if (imp.specifier === undefined || !imp.specifier.startsWith(".")) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(imp.file), imp.specifier));
  for (const candidate of [base.replace(/\.js$/, ".ts"), base.replace(/\.js$/, ".tsx"), base, `${base}/index.ts`]) if (files.has(candidate)) return candidate;
  return undefined;
}

/**
 * The import cycles among `files` (type-only imports count: a cycle of types still ties the
 * files together), each as its files sorted: the strongly connected components of more than
 * one file, and a file that imports itself (Tarjan's algorithm).
 */
export function cyclesOf(files: readonly string[], imports: readonly SourceImport[]): string[][] {
  const known = new Set(files);
  const edges = new Map<string, Set<string>>(files.map((f) => [f, new Set<string>()]));
  for (const imp of imports) {
    const target = targetOf(imp, known);
    if (target !== undefined) edges.get(imp.file)?.add(target);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of edges.get(file) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || edges.get(file)!.has(file)) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) connect(file);
  return cycles.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}
