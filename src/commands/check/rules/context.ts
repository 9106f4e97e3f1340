/** What every rule gets: where to report, what the server offers (catalog.ts), the validators. */
import type { SchemaValidators } from "@mcpgen/runtime/codegen";
import type { Catalog } from "./catalog.js";
import type { RuleId } from "./table.js";

export interface RuleContext {
  /** A finding of `rule` at a line of the log; `fix` defaults to the rule's. */
  report(rule: RuleId, line: number, id: unknown, message: string, fix?: string): void;
  catalog: Catalog;
  validators: SchemaValidators;
}
