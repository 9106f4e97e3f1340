/** Which JSON Schema dialect a schema is written in (no dependency: mcpgen's validator uses it without loading ajv). */

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** True when a schema declares draft-07; MCP 2025-11-25 schemas default to 2020-12 otherwise. */
export function isDraft07(schema: unknown): boolean {
  return (
    typeof schema === "object" &&
    schema !== null &&
    typeof (schema as { $schema?: unknown }).$schema === "string" &&
    DRAFT_07.test((schema as { $schema: string }).$schema)
  );
}
