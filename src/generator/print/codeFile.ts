/**
 * A generated TypeScript file whose import and export blocks are computed at render time. Imports:
 * from what the file prints (an import an emitter asked for but never printed is not written, so
 * no file imports what it does not use), grouped (packages, then relative), sorted, `import type`
 * when every use printed is a type, and aliased when a name would clash with one declared in the
 * file or imported from elsewhere. Exports: re-exports (`export * from`, `export { a, type B } from`) in the
 * order they were first asked for, then one list of names the file imported or declared; exported
 * declarations are printed in the body, doc comment and `export` by the printer. Every
 * module specifier goes through the string-literal function: a folder name is text, not code.
 */
import { docComment, stringLiteral } from "./literal.js";

declare const importRefBrand: unique symbol;

/**
 * A name an emitter imported, to print where the name goes: an opaque token that render()
 * replaces with the import's local name. An import is written only if one of its refs is printed
 * (in the body or an export list), so a file never imports what it does not use. importType's and
 * importValue's refs differ: the import is `type` when every ref printed is importType's.
 */
export type ImportRef = string & { readonly [importRefBrand]: true };

/** One import asked for: `name` from `module`. */
interface Requested {
  module: string;
  name: string;
}

/**
 * A ref as printed: `\0t<file>.<index>\0` (a type use) or `\0v<file>.<index>\0` (a value use).
 * `<file>` tells the files apart, so a ref printed in another file is caught, never taken for
 * one of that file's imports. NUL cannot come from a manifest: every literal function escapes it.
 */
const REF = /\0([tv])(\d+)\.(\d+)\0/g;

/** The next file's number, for its refs (never printed). */
let nextFile = 0;

/** A name this file exports from its own scope: its local name (or an import's ref) and whether it is a type only. */
interface LocalExport {
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
  /** Every import asked for, in the order first asked; a ref holds its index. */
  private readonly requested: Requested[] = [];
  private readonly requestIndex = new Map<string, number>();
  /** Names the file declares (reserved, or exported declarations): an import of one is aliased. */
  private readonly declared = new Set<string>();
  private readonly reExports: ReExport[] = [];
  /** Names this file exports from its own scope: exported name -> local name (or ref) and type only. */
  private readonly localExports = new Map<string, LocalExport>();
  /** Every name the file exports so far, to refuse exporting one name twice (a bug in an emitter). */
  private readonly exported = new Set<string>();
  private readonly chunks: string[] = [];
  /** This file's number in its refs. */
  private readonly id = nextFile++;

  constructor(
    /** Path relative to the server's output folder, with forward slashes. */
    readonly path: string,
    private readonly header: string,
    /**
     * What the file writes for a module as emitters name it (model/modules.ts
     * `moduleResolver`: one folder deeper, the runtime's mode); as named when absent.
     */
    private readonly specifier: (module: string) => string = (module) => module,
  ) {}

  /** Reserves names the body declares, so imports never shadow them. */
  declare(...names: string[]): void {
    for (const name of names) this.declared.add(name);
  }

  /**
   * Imports `name` from `module` for use in types; returns the ref to print where the name goes
   * in a type. Nothing is imported unless the ref is printed.
   */
  importType(module: string, name: string): ImportRef {
    return this.ref(module, name, "t");
  }

  /**
   * Imports `name` from `module` as a value; returns the ref to print where the name goes as a
   * value. Nothing is imported unless the ref is printed.
   */
  importValue(module: string, name: string): ImportRef {
    return this.ref(module, name, "v");
  }

  private ref(module: string, name: string, use: "t" | "v"): ImportRef {
    const key = `${module}\0${name}`;
    let index = this.requestIndex.get(key);
    if (index === undefined) {
      index = this.requested.push({ module, name }) - 1;
      this.requestIndex.set(key, index);
    }
    return `\0${use}${this.id}.${index}\0` as ImportRef;
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
   * Exports a name of this file's scope as `exported`: an import's ref (the import is then
   * written, and an alias still exports the public name), or a name declared in a statement the
   * file printed without `export`. `export { local as exported }`, or `export { local }` when they
   * are the same. An importType ref can only be exported as a type.
   */
  exportLocal(local: string, exported: string, typeOnly: boolean): void {
    if (!typeOnly && [...local.matchAll(REF)].some((m) => m[1] === "t")) {
      throw new Error(`mcpgen: ${this.path} would export ${exported}, imported as a type, as a value`);
    }
    this.claimExport(exported);
    this.localExports.set(exported, { local, typeOnly });
  }

  private claimExport(name: string): void {
    if (this.exported.has(name)) throw new Error(`mcpgen: ${this.path} would export ${name} twice`);
    this.exported.add(name);
  }

  /**
   * Prints an exported declaration with its doc comment, and records its name: exported twice
   * (here and by a re-export or another declaration), it is a bug in the emitter, refused here.
   * An import of that name is aliased.
   */
  exportDeclaration(declaration: ExportedDeclaration): void {
    const { doc, kind, name, text, blankLineBefore = true } = declaration;
    this.claimExport(name);
    this.declared.add(name);
    const printed = `${docComment(doc)}export ${kind} ${name}${text}\n`;
    if (!blankLineBefore && this.chunks.length > 0) this.chunks.push(`${this.chunks.pop()!}${printed}`);
    else this.chunks.push(printed);
  }

  /** Appends text to the body (a trailing newline is added when missing). */
  print(text: string): void {
    this.chunks.push(text.endsWith("\n") ? text : `${text}\n`);
  }

  /**
   * The file's text. The imports are those whose refs were printed, each under its local name:
   * its own, or `name$n` when the file declares that name or an import printed before it (in the
   * order asked) took it.
   */
  render(): string {
    const body = this.chunks.join("\n");
    const exportedLocals = [...this.localExports];
    /** Per import printed: whether a ref printed needs it as a value. */
    const used = new Map<number, boolean>();
    const note = (text: string) => {
      for (const [, use, file, index] of text.matchAll(REF))
        if (Number(file) === this.id) used.set(Number(index), used.get(Number(index)) === true || use === "v");
    };
    note(body);
    for (const [, { local }] of exportedLocals) note(local);

    const taken = new Set(this.declared);
    const locals = new Map<number, string>();
    for (const index of [...used.keys()].sort((a, b) => a - b)) {
      const { name } = this.requested[index]!;
      let local = name;
      for (let n = 1; taken.has(local); n++) local = `${name}$${n}`;
      taken.add(local);
      locals.set(index, local);
    }
    const resolve = (text: string) => {
      const resolved = text.replace(REF, (ref, _use, file: string, index: string) => (Number(file) === this.id ? locals.get(Number(index))! : ref));
      // A ref of another file: a bug in an emitter.
      if (resolved.includes("\0")) throw new Error(`mcpgen: ${this.path} prints a ref that is not one of its imports`);
      return resolved;
    };

    const byModule = new Map<string, [string, string, boolean][]>();
    for (const [index, asValue] of used) {
      const module = this.specifier(this.requested[index]!.module);
      const name = this.requested[index]!.name;
      let names = byModule.get(module);
      if (!names) byModule.set(module, (names = []));
      names.push([name, locals.get(index)!, !asValue]);
    }
    const modules = [...byModule.keys()].sort((a, b) => {
      const ra = a.startsWith(".") ? 1 : 0;
      const rb = b.startsWith(".") ? 1 : 0;
      return ra - rb || compare(a, b);
    });
    const lines = modules.map((module) => `import ${nameList(byModule.get(module)!.sort(([a], [b]) => compare(a, b)))} from ${stringLiteral(module)};`);
    const exports: string[] = this.reExports.map((r) =>
      r.all
        ? `export * from ${stringLiteral(this.specifier(r.module))};`
        : `export ${nameList([...r.names].map(([name, typeOnly]) => [name, name, typeOnly]))} from ${stringLiteral(this.specifier(r.module))};`,
    );
    if (exportedLocals.length > 0) exports.push(`export ${nameList(exportedLocals.map(([exported, n]) => [resolve(n.local), exported, n.typeOnly]))};`);
    const block = (rows: string[]) => (rows.length ? `${rows.join("\n")}\n\n` : "");
    return `${this.header}\n${block(lines)}${block(exports)}${resolve(body)}`.trimEnd() + "\n";
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
