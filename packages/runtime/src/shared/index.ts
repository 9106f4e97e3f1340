/**
 * `@mcpgen/runtime/shared`: what generated servers, clients and widgets all name. The errors
 * handlers throw and callers catch, MCP's result and content types (plain interfaces: the SDK's
 * are costly to type-check), the type of a generated `definition`, and the two checks generated
 * widget code runs in the browser.
 */
export * from "./errors.js";
export type * from "./mcp.js";
export type * from "./definition.js";
export type { ToolTaskState } from "./taskState.js";
export { describeErrors } from "./describeErrors.js";
export { patternEngine, type PatternTable } from "./patterns.js";
export { codePointLength } from "./codePoints.js";
