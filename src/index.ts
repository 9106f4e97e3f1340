/** mcpgen as a library: the pipeline and its stages. */
export { runPipeline, type PipelineOptions, type PipelineResult } from "./generate.js";
export { formatDiagnostic, type Diagnostic, type DiagnosticCode } from "./diagnostics.js";
export type { ServerModel, ToolModel, ResourceModel, ResourceTemplateModel, PromptModel } from "./model/types.js";
export { startMock, type MockOptions, type MockResult, type MockedServer } from "./mock/server.js";
