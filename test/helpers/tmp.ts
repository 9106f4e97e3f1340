/** Temporary project folders for tests; removed after each test file. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder holding `files` (paths relative to it). */
export function tempProject(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), "mcpgen-test-"));
  made.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  return dir;
}
