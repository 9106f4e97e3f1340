/**
 * The files a manifest names (`file:` resource contents, widget entries): resolved inside the
 * manifest's folder only (links followed), and read as text or base64.
 */
import { readFile, realpath } from "node:fs/promises";
import * as path from "node:path";
import type { Diagnostic, DocPath } from "../../common/diagnostics.js";
import { diagnosticAt, type LoadedManifest } from "../load/loadManifest.js";

const TEXT_MIME = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|ecmascript|ld\+json|graphql|toml|sql)\b|[^;]*\+(json|xml|yaml)\b)/i;

/** A path the manifest names (`file:`, a widget's `entry`), resolved: it must stay inside the manifest's folder, links followed. */
export async function resolveInManifestFolder(
  manifest: LoadedManifest,
  file: string,
  at: DocPath,
  code: "file-content" | "widget-build",
): Promise<{ path: string } | { diagnostic: Diagnostic }> {
  const fail = (message: string) => ({ diagnostic: diagnosticAt(manifest, at, code, message) });
  const dir = path.dirname(manifest.absPath);
  if (path.isAbsolute(file) || file.includes("\0")) return fail(`file ${JSON.stringify(file)} must be a relative path inside the manifest's folder`);
  let real: string;
  let realDir: string;
  try {
    [real, realDir] = await Promise.all([realpath(path.resolve(dir, file)), realpath(dir)]);
  } catch {
    return fail(`file ${JSON.stringify(file)} does not exist (paths are relative to the manifest's folder)`);
  }
  const rel = path.relative(realDir, real);
  if (rel.startsWith("..") || path.isAbsolute(rel))
    return fail(`file ${JSON.stringify(file)} resolves outside the manifest's folder; copy it next to the manifest`);
  return { path: real };
}

/** Reads a `file:` resource next to the manifest (text or base64 by its MIME type, else by its bytes); never a path outside the manifest's folder. */
export async function readResourceFile(
  manifest: LoadedManifest,
  file: string,
  mimeType: string | undefined,
  at: DocPath,
): Promise<{ content: { text: string } | { blob: string }; source: string } | { diagnostic: Diagnostic }> {
  const resolved = await resolveInManifestFolder(manifest, file, at, "file-content");
  if ("diagnostic" in resolved) return resolved;
  const real = resolved.path;
  const fail = (message: string) => ({ diagnostic: diagnosticAt(manifest, at, "file-content", message) });
  let bytes: Buffer;
  try {
    bytes = await readFile(real);
  } catch (error) {
    return fail(`cannot read file ${JSON.stringify(file)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const textual = typeof mimeType === "string" ? TEXT_MIME.test(mimeType) : isUtf8Text(bytes);
  return { content: textual ? { text: bytes.toString("utf8") } : { blob: bytes.toString("base64") }, source: real };
}

function isUtf8Text(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
