/** Emits `client.ts`: `createClient(sdkClient)` with one typed method per tool, resource and template. */
import type { ServerModel, ToolModel } from "../model/types.js";
import { docComment, propertyKey, stringLiteral } from "../print/literal.js";
import { codeFile, LOCAL, type OutputFile } from "./common.js";
import { exportApi } from "./publicApi.js";
import { toolSecurity } from "../model/securitySchemes.js";

export function emitClient(model: ServerModel): OutputFile[] {
  const file = codeFile(model, "client.ts");
  const name = model.clientTypeName;
  file.declare("methods");
  exportApi(file, LOCAL.client, name);
  const type = (n: string) => file.importType(LOCAL.types, n);
  const mcpType = (n: string) => file.importType(LOCAL.runtimeShared, n);
  const requestOptions = file.importType(LOCAL.runtimeClient, "RequestOptions");
  const opts = `options?: ${requestOptions}`;
  /** Task-capable tools (`execution.taskSupport` optional or required), in manifest order. */
  const taskTools = model.tools.filter((tool) => tool.taskSupport !== "forbidden");

  const members: string[] = [];
  const member = (doc: string[], signature: string) => members.push(`${docComment(doc, "  ")}  ${signature};\n`);
  /** What each per-tool, per-resource and per-template method calls, as a table for the runtime. */
  const table: string[] = [];
  const entry = (method: string, kind: "tool" | "resource" | "template", target: string) =>
    table.push(`  ${propertyKey(method)}: { ${kind}: ${stringLiteral(target)} },\n`);

  members.push(`${docComment(["The SDK client underneath, for anything not covered here."], "  ")}  readonly sdk: C;\n`);

  const outputOf = (tool: ToolModel) => (tool.output ? type(tool.output.typeName) : mcpType("CallToolResult"));
  for (const tool of model.tools) {
    const support = tool.taskSupport;
    const doc = [
      tool.description ?? "",
      `Calls tool \`${tool.name}\`. ${tool.output ? "Resolves to its structured output, checked against outputSchema unless `validate: false`." : "Resolves to the CallToolResult."} Rejects with ToolCallError when the tool answers \`isError: true\`.`,
      ...authorizationDoc(tool),
      ...(support === "required"
        ? ["It runs only as a task: this starts the task and polls until it ends (aborting `signal` cancels it); `tasks.start` gives the task itself."]
        : []),
      ...(support === "optional"
        ? ["It may run as a task: a 2026-07-28 server's task is polled until it ends (aborting `signal` cancels it); `tasks.start` asks for a task."]
        : []),
      ...(tool.examples[0] ? [`@example\nawait client.${tool.methodName}(${JSON.stringify(tool.examples[0].arguments)});`] : []),
    ];
    const options = support === "forbidden" ? opts : `options?: ${file.importType(LOCAL.runtimeClient, "TaskCallOptions")}`;
    member(
      doc,
      `${propertyKey(tool.methodName)}(args${tool.argumentsOptional ? "?" : ""}: ${type(tool.input.typeName)}, ${options}): Promise<${outputOf(tool)}>`,
    );
    entry(tool.methodName, "tool", tool.name);
  }
  if (taskTools.length > 0) {
    const entries = taskTools.map((tool) => `    ${stringLiteral(tool.name)}: { input: ${type(tool.input.typeName)}; output: ${outputOf(tool)} };\n`).join("");
    member(
      ["Task calls of the task-capable tools (`execution.taskSupport`): start, run, resume, get, cancel. In both protocol eras."],
      `readonly tasks: ${file.importType(LOCAL.runtimeClient, "ClientTasks")}<{\n${entries}  }>`,
    );
  }
  const toolName = type("ToolName");
  const toolInputs = type("ToolInputs");
  member(
    ["tools/call by name, resolving to the raw CallToolResult (`isError` results included)."],
    `callTool<N extends ${toolName}>(name: N, args: ${toolInputs}[N], ${opts}): Promise<${mcpType("CallToolResult")}>`,
  );
  member(
    ["tools/list, every page, keeping the tools the manifest declares: each entry's `name` is a `ToolName` (`sdk.listTools()` has the server's whole list)."],
    `listTools(${opts}): Promise<{ tools: ${file.importType(LOCAL.runtimeClient, "ListedTool")}<${toolName}>[] }>`,
  );
  member(
    [
      "Calls `handler` each time the server announces that a list changed (`resources` covers the templates): 2025 era, its notifications/<kind>/list_changed; 2026-07-28 (SDK v2 Client), a subscriptions/listen stream it opens. Resolves once listening; `close()` stops.",
    ],
    `onListChanged(kind: ${file.importType(LOCAL.runtimeClient, "ListChangeKind")}, handler: () => void): Promise<${file.importType(LOCAL.runtimeClient, "ListChangeSubscription")}>`,
  );
  const readResult = mcpType("ReadResourceResult");
  member(
    ["resources/read of any URI: the manifest's resources, URIs of its templates, or others the server knows."],
    `readResource(uri: ${type("ResourceUri")} | (string & {}), ${opts}): Promise<${readResult}>`,
  );
  for (const resource of model.resources) {
    member([resource.description ?? "", `Reads \`${resource.uri}\`.`], `${propertyKey(resource.readerName)}(${opts}): Promise<${readResult}>`);
    entry(resource.readerName, "resource", resource.uri);
  }
  for (const template of model.resourceTemplates) {
    member(
      [template.description ?? "", `Reads \`${template.uriTemplate}\` with the variables filled in (percent-encoded).`],
      `${propertyKey(template.readerName)}(variables: ${type(template.variablesTypeName)}, ${opts}): Promise<${readResult}>`,
    );
    entry(template.readerName, "template", template.uriTemplate);
  }
  const promptName = type("PromptName");
  const promptArgs = type("PromptArguments");
  member(
    ["prompts/get by name with typed arguments."],
    `getPrompt<N extends ${promptName}>(name: N, ...rest: {} extends ${promptArgs}[N] ? [args?: ${promptArgs}[N], ${opts}] : [args: ${promptArgs}[N], ${opts}]): Promise<${mcpType("GetPromptResult")}>`,
  );

  const engineClass = file.importValue(LOCAL.runtimeClient, "ManifestClient");
  const clientObject = file.importValue(LOCAL.runtimeClient, "clientObject");
  const clientMethods = file.importType(LOCAL.runtimeClient, "ClientMethods");
  const clientOptions = file.importType(LOCAL.runtimeClient, "ClientOptions");
  const definition = file.importValue(LOCAL.definition, "definition");
  const sdkClient = file.importType(LOCAL.runtimeClient, "SdkClient");
  file.exportDeclaration({
    doc: [`Typed client for ${model.name}, over a connected SDK Client: SDK v2's (@modelcontextprotocol/client, either protocol era) or SDK 1.x's.`],
    kind: "interface",
    name,
    text: `<C extends ${sdkClient} = ${sdkClient}> {\n${members.join("")}}`,
  });
  file.exportDeclaration({
    doc: [`Wraps a connected SDK Client in ${name}.`, "@example\nconst client = createClient(sdkClient);"],
    kind: "function",
    name: "createClient",
    text: `<C extends ${sdkClient}>(sdk: C, options?: ${clientOptions}): ${name}<C> {\n  return ${clientObject}<${name}<C>>(new ${engineClass}(sdk, ${definition}, options), methods);\n}`,
  });
  file.exportDeclaration({
    doc: [
      "The scopes an access token needs for each tool, read from its `securitySchemes` (its `oauth2` entries): the scopes to ask an authorization server for before calling it. A tool without an `oauth2` scheme is not listed (it asks for no token); one that also has `noauth` is callable without a token and is listed with the scopes a token needs.",
    ],
    kind: "const",
    name: "toolScopes",
    text: ` = ${toolScopesLiteral(model.tools)} as const;`,
  });
  file.print(
    `/** The methods of ${name} and what each calls: a tool, a resource URI, a URI template. */\nconst methods = {${table.length ? `\n${table.join("")}` : ""}} satisfies ${clientMethods}<${name}>;`,
  );
  return [{ path: file.path, content: file.render() }];
}

/** `{ tool_name: ["scope"], ... }` for the tools with an `oauth2` scheme, in manifest order, each with a comment. */
function toolScopesLiteral(tools: readonly ToolModel[]): string {
  const entries: string[] = [];
  for (const tool of tools) {
    const security = toolSecurity(tool.wire);
    if (security?.scopes === undefined) continue;
    const needs = security.scopes.length > 0 ? `needs a token with ${security.scopes.join(", ")}` : "needs a token (no particular scope)";
    const doc = security.anonymous ? `\`${tool.name}\` is callable without a token; with one, it ${needs}.` : `\`${tool.name}\` ${needs}.`;
    entries.push(`${docComment([doc], "  ")}  ${propertyKey(tool.name)}: [${security.scopes.map(stringLiteral).join(", ")}],\n`);
  }
  return entries.length > 0 ? `{\n${entries.join("")}}` : "{}";
}

/** For a tool with an `oauth2` scheme: the error its method rejects with when the token falls short. */
function authorizationDoc(tool: ToolModel): string[] {
  const scopes = toolSecurity(tool.wire)?.scopes;
  if (scopes === undefined) return [];
  return [
    `Rejects with ToolAuthorizationError when refused for want of authorization${scopes.length > 0 ? ` (a token with ${scopes.join(", ")}: \`toolScopes\`)` : ""}.`,
  ];
}
