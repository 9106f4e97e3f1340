/**
 * `npm run docs`: writes the reference pages made from mcpgen's own tables (the pages under
 * docs/reference/ that pages.ts lists: manifest, config, cli, diagnostics, check-rules,
 * source-files). Deterministic: the same tables give the same bytes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { referencePages } from "./pages.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));
for (const page of referencePages()) {
  const file = path.join(root, page.path);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, page.text);
  process.stdout.write(`mcpgen: wrote ${page.path}\n`);
}
