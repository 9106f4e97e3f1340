/**
 * A generated TypeScript file whose import block is computed at render time from what the body
 * used: grouped (packages, then relative), sorted, `import type` when every use is a type, and
 * aliased when a name would clash with one declared in the file or imported from elsewhere.
 */

interface ImportedName {
  local: string;
  typeOnly: boolean;
}

export class CodeFile {
  private readonly imports = new Map<string, Map<string, ImportedName>>();
  private readonly taken = new Set<string>();
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
      const allTypes = names.every(([, n]) => n.typeOnly);
      const specifiers = names.map(([name, n]) => `${!allTypes && n.typeOnly ? "type " : ""}${name === n.local ? name : `${name} as ${n.local}`}`);
      lines.push(`import ${allTypes ? "type " : ""}{ ${specifiers.join(", ")} } from "${module}";`);
    }
    const importBlock = lines.length ? `${lines.join("\n")}\n\n` : "";
    const body = this.chunks.join("\n");
    return `${this.header}\n${importBlock}${body}`.trimEnd() + "\n";
  }
}
