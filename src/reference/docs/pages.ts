/**
 * The reference pages written from mcpgen's own tables, each a path under the repository and its
 * text. `npm run docs` writes them (docs/write.ts); test/docs.test.ts fails when a committed page
 * is not what this produces.
 */
import { checkRulesPage } from "./checkRulesPage.js";
import { cliPage } from "./cliPage.js";
import { configPage } from "./configPage.js";
import { diagnosticsPage } from "./diagnosticsPage.js";
import { manifestPage } from "./manifestPage.js";
import { sourceFilesPage } from "./sourceFilesPage.js";

export interface ReferencePage {
  /** Relative to the repository, with forward slashes. */
  path: string;
  text: string;
}

export function referencePages(): ReferencePage[] {
  return [
    { path: "docs/reference/manifest.md", text: manifestPage() },
    { path: "docs/reference/config.md", text: configPage() },
    { path: "docs/reference/cli.md", text: cliPage() },
    { path: "docs/reference/diagnostics.md", text: diagnosticsPage() },
    { path: "docs/reference/check-rules.md", text: checkRulesPage() },
    { path: "docs/reference/source-files.md", text: sourceFilesPage() },
  ];
}
