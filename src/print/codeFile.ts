/**
 * A generated TypeScript file whose import and export blocks are computed at render time from
 * what the emitter asked for. Imports: grouped (packages, then relative), sorted, `import type`
 * when every use is a type, and aliased when a name would clash with one declared in the file or
 * imported from elsewhere. Exports: re-exports (`export * from`, `export { a, type B } from`) in the
 * order they were first asked for, then one list of names the file imported or declared; exported
 * declarations are printed in the body, doc comment and `export` by the printer. Every
 * module specifier goes through the string-literal function: a folder name is text, not code.
 */
import { docComment, stringLiteral } from "./literal.js";

interface ImportedName {
  local: string;
  typeOnly: boolean;
}

/** A declaration the file exports: `<doc>export <kind> <name><text>`. */
interface ExportedDeclaration {
  /** Lines of its doc comment (empty ones are dropped; none, no comment). */
  doc: readonly string[];
  kind: "interface" | "type" | "const" | "function";
  name: string;
  /** What follows the name: type parameters, `= type;`, `: Type = value;`, a signature and body. */
  text: string;
  /** False to print it right after the previous text, without the blank line between. */
  blankLineBefore?: boolean;
}

/** One `export ... from` line: `export *` or a list of names (name -> type only). */
type ReExport = { module: string; all: true } | { module: string; all: false; names: Map<string, boolean> };

export class CodeFile {
  private readonly imports = new Map<string, Map<string, ImportedName>>();
  private readonly taken = new Set<string>();
  private readonly reExports: ReExport[] = [];
  /** Names this file exports from its own scope: exported name -> local name and type only. */
  private readonly localExports = new Map<string, ImportedName>();
  /** Every name the file exports so far, to refuse exporting one name twice (a bug in an emitter). */
  private readonly exported = new Set<string>();
  private readonly chunks: string[] = [];

  constructor(
    /** Path relative to the server's output folder, with forward slashes. */
    readonly path: string,
    private readonly header: string,
  ) {}

  /** Reserves names the body declares, so imports never shadow them. */
  declare(...names: string[]): void {
    for (const name of names) this.taken.add(name);
  }

  /** Imports `name` from `module` for use in types only; returns the local name to print. */
  importType(module: string, name: string): string {
    return this.addImport(module, name, true);
  }

  /** Imports `name` from `module` as a value; returns the local name to print. */
  importValue(module: string, name: string): string {
    return this.addImport(module, name, false);
  }

  private addImport(module: string, name: string, typeOnly: boolean): string {
    let names = this.imports.get(module);
    if (!names) this.imports.set(module, (names = new Map()));
    const existing = names.get(name);
    if (existing) {
      if (!typeOnly) existing.typeOnly = false;
      return existing.local;
    }
    let local = name;
    for (let n = 1; this.taken.has(local); n++) local = `${name}$${n}`;
    this.taken.add(local);
    names.set(name, { local, typeOnly });
    return local;
  }

  /** `export * from "<module>";` */
  reExportAll(module: string): void {
    if (!this.reExports.some((r) => r.all && r.module === module)) this.reExports.push({ module, all: true });
  }

  /** Re-exports `name` from `module` (`export { name } from "<module>"`), for use in types only when `typeOnly`. */
  reExport(module: string, name: string, typeOnly: boolean): void {
    this.claimExport(name);
    let line = this.reExports.find((r): r is Extract<ReExport, { all: false }> => !r.all && r.module === module);
    if (!line) this.reExports.push((line = { module, all: false, names: new Map() }));
    line.names.set(name, typeOnly);
  }

  /**
   * Exports a name of this file's scope (one it imported, or declared in a statement it printed
   * without `export`) as `exported`: `export { local as exported }`, or `export { local }` when
   * they are the same. Use it for the local name an import returned, so an alias still exports
   * the public name.
   */
  exportLocal(local: string, exported: string, typeOnly: boolean): void {
    this.claimExport(exported);
    this.localExports.set(exported, { local, typeOnly });
  }

  private claimExport(name: string): void {
    if (this.exported.has(name)) throw new Error(`mcpgen: ${this.path} would export ${name} twice`);
    this.exported.add(name);
  }

  /**
   * Prints an exported declaration with its doc comment, and records its name: exported twice
   * (here and by a re-export or another declaration) or already the local name of an import, it
   * is a bug in the emitter, refused here. Later imports of that name are aliased.
   */
  exportDeclaration(declaration: ExportedDeclaration): void {
    const { doc, kind, name, text, blankLineBefore = true } = declaration;
    if ([...this.imports.values()].some((names) => [...names.values()].some((n) => n.local === name))) {
      throw new Error(`mcpgen: ${this.path} would declare ${name}, the local name of an import (reserve it with declare() before importing)`);
    }
    this.claimExport(name);
    this.taken.add(name);
    const printed = `${docComment(doc)}export ${kind} ${name}${text}\n`;
    if (!blankLineBefore && this.chunks.length > 0) this.chunks.push(`${this.chunks.pop()!}${printed}`);
    else this.chunks.push(printed);
  }

  /** Appends text to the body (a trailing newline is added when missing). */
  print(text: string): void {
    this.chunks.push(text.endsWith("\n") ? text : `${text}\n`);
  }

  render(): string {
    const modules = [...this.imports.keys()].sort((a, b) => {
      const ra = a.startsWith(".") ? 1 : 0;
      const rb = b.startsWith(".") ? 1 : 0;
      return ra - rb || (a < b ? -1 : a > b ? 1 : 0);
    });
    const lines: string[] = [];
    for (const module of modules) {
      const names = [...this.imports.get(module)!].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      lines.push(`import ${nameList(names.map(([name, n]) => [name, n.local, n.typeOnly]))} from ${stringLiteral(module)};`);
    }
    const exports: string[] = this.reExports.map((r) =>
      r.all
        ? `export * from ${stringLiteral(r.module)};`
        : `export ${nameList([...r.names].map(([name, typeOnly]) => [name, name, typeOnly]))} from ${stringLiteral(r.module)};`,
    );
    if (this.localExports.size > 0) exports.push(`export ${nameList([...this.localExports].map(([exported, n]) => [n.local, exported, n.typeOnly]))};`);
    const block = (rows: string[]) => (rows.length ? `${rows.join("\n")}\n\n` : "");
    const body = this.chunks.join("\n");
    return `${this.header}\n${block(lines)}${block(exports)}${body}`.trimEnd() + "\n";
  }
}

/**
 * `{ a, b as c, type D }`, or `type { A, B }` when every name is a type. Each entry is
 * [name on the left, name on the right of `as`, type only].
 */
function nameList(entries: readonly (readonly [string, string, boolean])[]): string {
  const allTypes = entries.every(([, , typeOnly]) => typeOnly);
  const specifiers = entries.map(([left, right, typeOnly]) => `${!allTypes && typeOnly ? "type " : ""}${left === right ? left : `${left} as ${right}`}`);
  return `${allTypes ? "type " : ""}{ ${specifiers.join(", ")} }`;
}
