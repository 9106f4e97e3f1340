/** What a host page of ./server.ts is opened with (served as JSON, read by ./host.page.ts). */
export interface HostPageConfig {
  /** `mcp-apps`: the AppBridge answers; `none`: nobody answers the view's MCP Apps messages. */
  host: "mcp-apps" | "none";
  html: string;
  tool: string;
  arguments: { [key: string]: unknown };
  result: unknown;
  sandboxUrl: string;
}
