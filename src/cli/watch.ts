/**
 * `mcpgen generate --watch`: regenerate when a manifest (or a file in its folder, widget sources
 * in subfolders included), the config or a template changes. Changes are debounced; runs never overlap; an invalid edit prints its
 * diagnostics and leaves the last good output in place (the pipeline writes nothing on errors);
 * the process only stops on SIGINT/SIGTERM.
 */
import { existsSync, statSync, watch as fsWatch, type FSWatcher } from "node:fs";
import * as path from "node:path";
import type { Config } from "../config/loadConfig.js";
import type { ArgumentDiagnostic } from "../common/diagnostics.js";
import { printDiagnostics } from "../common/report.js";

export interface WatchHooks {
  /** Reads the config again (after an edit to it); undefined keeps the previous one. */
  reloadConfig: () => Config | undefined;
  /** One generate run with a config. */
  run: (config: Config) => Promise<unknown>;
  /**
   * More folders to watch, asked again after each run (`mcpgen dev`: the widgets' source folders
   * and the handlers'): recursive, except a folder holding node_modules (the project's root).
   */
  folders?: () => string[];
  /** Milliseconds of quiet before a run (default 100). */
  debounceMs?: number;
  /** Resolves to stop watching (default: SIGINT or SIGTERM). */
  stop?: Promise<void>;
}

export async function watch(initial: Config, hooks: WatchHooks, cwd: string): Promise<void> {
  let config = initial;
  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let pending = false;
  let configChanged = false;
  const debounce = hooks.debounceMs ?? 100;

  const targets = (c: Config) => {
    const dirs = new Map<string, { recursive: boolean }>();
    /** A folder, or a file's: recursive when asked, unless it holds node_modules (the project's root: too much to walk). */
    const add = (p: string, recursive = false) => {
      const dir = existsSync(p) && statSync(p).isDirectory() ? p : path.dirname(p);
      if (!existsSync(dir)) return;
      const deep = recursive && !existsSync(path.join(dir, "node_modules"));
      dirs.set(dir, { recursive: deep || dirs.get(dir)?.recursive === true });
    };
    // Recursive: a widget's sources (and a manifest's file: resources) live under its manifest's folder.
    for (const m of c.manifests) add(m, true);
    for (const s of c.sources) add(s);
    if (c.templates) add(c.templates, true);
    for (const f of hooks.folders?.() ?? []) add(f, true);
    return dirs;
  };
  const outside = (file: string) =>
    !file.startsWith(config.out + path.sep) && !/\.mcpgen-\d+\.tmp$/.test(file) && !editorTemporary(file) && !/[\\/](node_modules|\.git)[\\/]/.test(file);
  let armed = "";

  const arm = () => {
    for (const w of watchers) w.close();
    watchers = [];
    const dirs = targets(config);
    armed = JSON.stringify([...dirs]);
    for (const [dir, { recursive }] of dirs) {
      try {
        const w = fsWatch(dir, { recursive }, (_event, name) => {
          const file = name ? path.join(dir, name.toString()) : dir;
          if (!outside(file)) return;
          if (config.sources.includes(file)) configChanged = true;
          schedule(file);
        });
        w.on("error", () => {});
        watchers.push(w);
      } catch (error) {
        printDiagnostics([watchFailed(path.relative(cwd, dir) || ".", (error as Error).message)]);
      }
    }
    process.stdout.write(`mcpgen: watching ${watchers.length} folder${watchers.length === 1 ? "" : "s"} for changes (Ctrl-C to stop).\n`);
  };

  const runNow = async () => {
    if (configChanged) {
      configChanged = false;
      const next = hooks.reloadConfig();
      if (next) {
        config = next;
        arm();
      }
    }
    await hooks.run(config);
    // A run can bring new folders to watch (a widget added): watch them from now on.
    if (hooks.folders && JSON.stringify([...targets(config)]) !== armed) arm();
  };
  const schedule = (file: string) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (running) {
        pending = true;
        return;
      }
      process.stdout.write(`mcpgen: ${path.relative(cwd, file) || file} changed; regenerating.\n`);
      running = runNow()
        .catch((error: unknown) => {
          process.stderr.write(`mcpgen: internal error during regeneration (a bug in mcpgen): ${error instanceof Error ? error.stack : String(error)}\n`);
        })
        .finally(() => {
          running = undefined;
          if (pending) {
            pending = false;
            schedule(file);
          }
        });
    }, debounce);
  };

  await hooks.run(config);
  arm();
  await (hooks.stop ??
    new Promise<void>((resolve) => {
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
    }));
  if (timer) clearTimeout(timer);
  for (const w of watchers) w.close();
  await running;
}

/**
 * The files editors and tools write beside the one being saved, then rename or delete: `sed -i`'s
 * `sedXXXXXX`, vim's swap files and `4913` probe, emacs's `#file#` and `.#file` locks, backups
 * ending in `~`, JetBrains' `___jb_tmp___`, `.tmp`/`.swp`-like suffixes. An event on one starts no
 * build and prints no line: the save itself (the rename onto the real file) does.
 */
function editorTemporary(file: string): boolean {
  const name = path.basename(file);
  return (
    name.endsWith("~") ||
    /^sed[A-Za-z0-9]{6}$/.test(name) ||
    /^\d+$/.test(name) ||
    /^\..*\.sw[a-p]$/.test(name) ||
    /^\.?#/.test(name) ||
    /___jb_(tmp|old|bak)___$/.test(name) ||
    /\.(tmp|temp|bak|orig|crswap|kate-swp)$/i.test(name) ||
    /\.tmp\.\d+$/.test(name)
  );
}

/** A folder watch cannot watch (`shown`: relative to cwd), located at it: watching goes on without it. */
export function watchFailed(shown: string, why: string): ArgumentDiagnostic {
  return {
    severity: "error",
    code: "watch-failed",
    argument: shown,
    message: `cannot watch ${shown}: ${why}`,
    fix: "changes there are not seen; run mcpgen generate after editing there",
  };
}
