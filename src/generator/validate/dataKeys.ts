/**
 * Keys YAML made from text anywhere in a manifest: in a flow mapping `{greeting: Hello, Ada!}`
 * the comma ends the text and `Ada!` becomes a key written with no value (null), which would be
 * served as data (an example, a message, `_meta`, a default). Schema nodes and fields of MCP
 * objects have checks of their own (schemas.ts, shape.ts), which word it for their place; this
 * one reports what they leave, so a key is reported once.
 */
import { formatPath, type Diagnostic, type DocPath } from "../../common/diagnostics.js";
import { diagnosticAt, type LoadedManifest } from "../load/loadManifest.js";
import { isPlainObject } from "../../common/objects.js";
import { quoteHint } from "./flowText.js";

export function checkBareKeys(manifest: LoadedManifest, reported: readonly Diagnostic[]): Diagnostic[] {
  const taken = new Set(reported.map((d) => d.path));
  const out: Diagnostic[] = [];
  // A stack rather than recursion: a manifest's nesting depth is the author's to choose.
  const stack: { node: unknown; path: DocPath }[] = [{ node: manifest.value, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((item, i) => stack.push({ node: item, path: [...path, i] }));
      continue;
    }
    if (!isPlainObject(node)) continue;
    for (const key of Object.keys(node)) {
      const at = [...path, key];
      const value = node[key];
      if (value !== null) {
        stack.push({ node: value, path: at });
        continue;
      }
      // Only a key written bare is text for sure: `name: null` or `name:` in an example means null.
      if (taken.has(formatPath(at)) || !manifest.writtenBare(at)) continue;
      const hint = quoteHint(node, key);
      out.push(
        diagnosticAt(
          manifest,
          at,
          "suspicious-key",
          `\`${key}\` is a key written without a value (null): YAML made it from text. ${hint.charAt(0).toUpperCase()}${hint.slice(1)}`,
          {
            at: "key",
            severity: "warning",
          },
        ),
      );
    }
  }
  return out.sort((a, b) => a.line - b.line || a.col - b.col);
}
