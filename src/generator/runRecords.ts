/**
 * What the last successful run read and wrote, so the next one can skip every manifest whose
 * inputs and outputs are exactly as it left them: its text, the `file:` resources it read, the
 * run's options and mcpgen itself unchanged, and its output folder untouched (same files, sizes
 * and mtimes). Such a manifest is neither parsed, nor validated, nor emitted, nor written.
 */
import { sha256 } from "./load/parseCache.js";
import { readdirSync, readFileSync, renameSync, statSync, mkdirSync, writeFileSync, existsSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Diagnostic } from "../common/diagnostics.js";

export interface ManifestRecord {
  /** sha256 of the manifest text. */
  hash: string;
  /** server.name: its folder under out. */
  server: string;
  /** Other files it read (`file:` resources) with their sha256. */
  deps: { file: string; hash: string }[];
  /** Every file of its output folder as the run left it. */
  outputs: { file: string; size: number; mtimeMs: number }[];
  /**
   * Its handler stub files (absolute) with their sha256: the user's code, which the run reads
   * (does each still export its handler? handlers.ts imports it) and may append to.
   */
  stubs: { file: string; hash: string }[];
  /** The files of its stub folder, for the orphan warnings. */
  stubFolder?: { dir: string; files: string[] };
  /** Its warnings, said again when the manifest is skipped. */
  warnings?: Diagnostic[];
  /** Its handler stubs' warnings (stub-orphan), at their files (absolute): said again when it is skipped. */
  stubWarnings?: Diagnostic[];
  /** The manifest file as it was when its text was read (see knownHash). */
  file?: FileStamp;
}

/** A file's identity on disk, and when its text was read (ms since the epoch). */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  readAt: number;
}

/**
 * A change within this long before a file was read may share its timestamps with what was read
 * (coarse file system clocks): such a file is hashed again next time ("racily clean", as git says).
 */
const RACY_MS = 2000;

/** The stamp of a file whose text is read now. */
export function stampOf(info: { size: number; mtimeMs: number; ctimeMs: number; ino: number }, readAt: number): FileStamp {
  return { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino, readAt };
}

interface RunState {
  key: string;
  manifests: Record<string, ManifestRecord>;
}

/**
 * mcpgen's own identity: a rebuilt or upgraded mcpgen must not reuse what another build
 * generated. An incremental `tsc` rewrites only the files that changed, but always its build
 * info (dist/.tsbuildinfo, present in a checkout); an installed package is replaced whole, so
 * its version and the mtime of this file tell. The runtime sources are compared on every run.
 */
const SELF = (() => {
  const here = fileURLToPath(import.meta.url);
  const dist = path.resolve(path.dirname(here), "..");
  try {
    const version = (JSON.parse(readFileSync(path.join(dist, "..", "package.json"), "utf8")) as { version?: string }).version;
    const build = existsSync(path.join(dist, ".tsbuildinfo")) ? statSync(path.join(dist, ".tsbuildinfo")).mtimeMs : statSync(here).mtimeMs;
    return `${version}:${build}`;
  } catch {
    return String(Date.now());
  }
})();

export class RunRecords {
  private state: RunState;

  private constructor(
    private readonly file: string,
    key: string,
    previous: RunState | undefined,
  ) {
    this.state = previous && previous.key === key ? previous : { key, manifests: {} };
  }

  /** The records for one output folder and set of options, under the project's cache folder. */
  static open(cacheRoot: string, scope: string, options: unknown): RunRecords {
    const file = path.join(cacheRoot, "runs", `${sha256(scope).slice(0, 32)}.json`);
    let previous: RunState | undefined;
    try {
      previous = JSON.parse(readFileSync(file, "utf8")) as RunState;
    } catch {
      previous = undefined;
    }
    return new RunRecords(file, sha256(JSON.stringify([SELF, options])), previous);
  }

  /**
   * The recorded hash of a manifest whose file is provably the one read last time: same size,
   * inode, mtime and ctime (which no tool can set back), last changed well before it was read.
   * Lets a no-op run skip reading and hashing every manifest. Undefined: read and hash it.
   */
  knownHash(absPath: string, info: { size: number; mtimeMs: number; ctimeMs: number; ino: number }): string | undefined {
    const stamp = this.state.manifests[absPath]?.file;
    if (!stamp || stamp.size !== info.size || stamp.ino !== info.ino || stamp.mtimeMs !== info.mtimeMs || stamp.ctimeMs !== info.ctimeMs) return undefined;
    if (Math.max(stamp.mtimeMs, stamp.ctimeMs) >= stamp.readAt - RACY_MS) return undefined;
    return this.state.manifests[absPath]!.hash;
  }

  /** Notes the stamp of a reused manifest's file, read again this run (its text hashed the same). */
  restamp(absPath: string, stamp: FileStamp): void {
    const record = this.state.manifests[absPath];
    if (record) record.file = stamp;
  }

  /** The record of a manifest whose text hashes to `hash`, if nothing it depends on changed. */
  reusable(absPath: string, hash: string, outDir: string): ManifestRecord | undefined {
    const record = this.state.manifests[absPath];
    if (!record || record.hash !== hash) return undefined;
    for (const dep of record.deps) {
      try {
        if (sha256(readFileSync(dep.file)) !== dep.hash) return undefined;
      } catch {
        return undefined;
      }
    }
    for (const stub of record.stubs) {
      try {
        if (sha256(readFileSync(stub.file)) !== stub.hash) return undefined;
      } catch {
        return undefined;
      }
    }
    if (record.stubFolder && listFiles(record.stubFolder.dir).join("\0") !== record.stubFolder.files.join("\0")) return undefined;
    const dir = path.join(outDir, record.server);
    const now = listFiles(dir);
    if (now.length !== record.outputs.length) return undefined;
    for (const out of record.outputs) {
      try {
        const info = statSync(path.join(dir, out.file));
        if (info.size !== out.size || info.mtimeMs !== out.mtimeMs) return undefined;
      } catch {
        return undefined;
      }
    }
    return record;
  }

  /** Records a manifest after a successful run wrote (or confirmed) its folder. */
  record(
    absPath: string,
    hash: string,
    stamp: FileStamp,
    server: string,
    deps: string[],
    outDir: string,
    stubs: string[],
    stubDir?: string,
    warnings: Diagnostic[] = [],
    stubWarnings: Diagnostic[] = [],
  ): void {
    const dir = path.join(outDir, server);
    const hashOf = (file: string) => {
      try {
        return sha256(readFileSync(file));
      } catch {
        return "";
      }
    };
    this.state.manifests[absPath] = {
      hash,
      file: stamp,
      server,
      stubs: stubs.map((file) => ({ file, hash: hashOf(file) })),
      ...(stubDir ? { stubFolder: { dir: stubDir, files: listFiles(stubDir) } } : {}),
      ...(warnings.length ? { warnings } : {}),
      ...(stubWarnings.length ? { stubWarnings } : {}),
      deps: deps.map((file) => ({ file, hash: sha256(readFileSync(file)) })),
      outputs: listFiles(dir).map((file) => {
        const info = statSync(path.join(dir, file));
        return { file, size: info.size, mtimeMs: info.mtimeMs };
      }),
    };
  }

  /** Keeps only the manifests of this run, and writes the records. */
  save(current: readonly string[]): void {
    const kept: Record<string, ManifestRecord> = {};
    for (const file of current) if (this.state.manifests[file]) kept[file] = this.state.manifests[file]!;
    this.state.manifests = kept;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(this.state));
      renameSync(temp, this.file);
    } catch {
      // Records that cannot be written only cost speed next time.
    }
  }
}

function listFiles(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(path.join(dir, entry.name), rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}

/** A hash of every file under `dir` (names and contents), for options that name a folder. */
export function hashFolder(dir: string): string {
  const parts: string[] = [];
  const walk = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const abs = path.join(d, e.name);
      if (e.isDirectory()) walk(abs);
      else parts.push(`${abs}\0${sha256(readFileSync(abs))}`);
    }
  };
  walk(dir);
  return sha256(parts.join("\n"));
}
