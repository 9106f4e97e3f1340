/** Emits `index.ts`: the folder's public surface. */
import type { ServerModel } from "../model/types.js";
import { clientInterfaceName } from "./client.js";
import { codeFile, LOCAL, type OutputFile } from "./common.js";

export function emitIndex(model: ServerModel): OutputFile[] {
  const file = codeFile(model, "index.ts");
  const server = model.options.clientOnly
    ? []
    : [
        `export { createServer, createServerFactory, type CompletionHandler, type Handlers, type InputOptions, type PromptContext, type RequestContext, type ResourceContext, type ResourceHandlerResult, type ServerFactory, type ServerOptions, type ToolContext, type ToolTextResult } from "${LOCAL.server}";`,
      ];
  file.print(
    [
      `export * from "${LOCAL.types}";`,
      ...server,
      `export { createClient, type ${clientInterfaceName(model)}, type ClientOptions, type RequestOptions, type SdkClient, type ToolTask, type ToolTaskState } from "${LOCAL.client}";`,
      `export { MissingClientCapabilityError, OutputValidationError, RpcError, TaskEndedError, TaskInputRequiredError, ToolCallError, ToolError } from "${LOCAL.runtimeErrors}";`,
      `export type { CallToolResult, ContentBlock, CreateMessageResult, ElicitResult, GetPromptResult, ListRootsResult, PromptMessage, ReadResourceResult } from "${LOCAL.runtimeMcp}";`,
      `export { definition } from "${LOCAL.definition}";`,
    ].join("\n"),
  );
  return [{ path: file.path, content: file.render() }];
}
