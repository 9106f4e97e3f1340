/**
 * The programs the tests run besides Node: Chromium and redis-server, as the e2e project's global
 * setup (test/deps-setup.ts, running scripts/test-deps.mjs) found or installed them. A helper asks
 * here before starting one; a missing one throws the setup's one-line message at once, so the
 * suites that need it fail at their first hook saying what to install, never on a hook timeout.
 */
import { inject } from "vitest";

export type Program = "chromium" | "redis-server";
/** Where the setup found a program, or the line it printed for it. */
export type Located = { path: string } | { missing: string };
export type Programs = Record<Program, Located>;

declare module "vitest" {
  interface ProvidedContext {
    testPrograms: Programs;
  }
}

/**
 * The path to run `name` from. Outside the e2e project (a benchmark script, a project without the
 * setup) there is nothing provided, and `fallback` is used: the caller's variable or a name on PATH.
 */
export function programPath(name: Program, fallback: string): string {
  // inject() throws outside a Vitest worker; VITEST is set in every worker.
  const located = process.env.VITEST ? inject("testPrograms")?.[name] : undefined;
  if (!located) return fallback;
  if ("missing" in located) throw new Error(located.missing);
  return located.path;
}
