/**
 * `@mcpgen/runtime/widget`: the engine of a generated widget client with mcpgen's own MCP Apps
 * bridge (a few KB); `@mcpgen/runtime/widget/ext-apps` is the same engine on the official `App`.
 */
export * from "./widget.js";
