/** mcpgen as a library: the pipeline and its stages. */
export { runPipeline, type PipelineOptions, type PipelineResult } from "./generator/pipeline.js";
export { formatDiagnostic, type Diagnostic, type DiagnosticCode } from "./common/diagnostics.js";
export type { ServerModel, ToolModel, ResourceModel, ResourceTemplateModel, PromptModel } from "./generator/model/types.js";
export { startMock, type MockOptions, type MockResult, type MockedServer } from "./commands/mock/server.js";
