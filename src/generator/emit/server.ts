/** Emits `server.ts`: the `Handlers` type (exactly the handlers the manifest needs) and `createServer`. */
import type { ServerModel } from "../model/types.js";
import { docComment, stringLiteral, typePropertyKey } from "../print/literal.js";
import { codeFile, LOCAL, SDK, type OutputFile } from "./common.js";
import type { CodeFile } from "../print/codeFile.js";
import { apiScope, exportApi } from "./publicApi.js";

export function emitServer(model: ServerModel): OutputFile[] {
  const file = codeFile(model, "server.ts");
  exportApi(file, LOCAL.server, undefined, apiScope(model));
  const rt = (name: string) => file.importType(LOCAL.runtimeServer, name);
  const type = (name: string) => file.importType(LOCAL.types, name);
  const promise = (t: string) => `${t} | Promise<${t}>`;

  const groups: string[] = [];
  /** The handler groups printed in `Handlers`, with the MCP name and function name of their first handler. */
  const printed = new Map<HandlerGroup, { name: string; handlerName: string }>();
  const group = (key: HandlerGroup, doc: string, members: string[], first?: { name: string; handlerName: string }) => {
    if (members.length === 0 || !first) return;
    groups.push(`${docComment([doc], "  ")}  ${key}: {\n${members.join("")}  };\n`);
    printed.set(key, first);
  };
  const member = (name: string, doc: string[], signature: string) => `${docComment(doc, "    ")}    ${typePropertyKey(name)}: ${signature};\n`;

  group(
    "tools",
    "One handler per tool: `(args, ctx)`, arguments already checked against inputSchema.",
    model.tools.map((t) => {
      const result = t.output ? type(t.output.typeName) : rt("ToolTextResult");
      const doc = [
        t.description ?? "",
        t.output
          ? "Return the structured output; it is checked against outputSchema and sent as structuredContent plus a JSON text block."
          : "Return a string (one text block) or a full CallToolResult.",
        "Throw ToolError to answer `isError: true` with its message.",
      ];
      return member(t.name, doc, `(args: ${type(t.input.typeName)}, ctx: ${rt("ToolContext")}<ServerLists>) => ${promise(result)}`);
    }),
    model.tools[0],
  );
  const handledResources = model.resources.filter((r) => r.needsHandler);
  group(
    "resources",
    "One handler per resource without static content in the manifest: `(ctx)`, with `ctx.uri`.",
    handledResources.map((r) =>
      member(r.name, [r.description ?? "", `Serves \`${r.uri}\`.`], `(ctx: ${rt("ResourceContext")}<ServerLists>) => ${promise(rt("ResourceHandlerResult"))}`),
    ),
    handledResources[0],
  );
  group(
    "resourceTemplates",
    "One handler per resource template: `(variables, ctx)`, variables decoded from the requested URI.",
    model.resourceTemplates.map((t) =>
      member(
        t.name,
        [t.description ?? "", `Serves \`${t.uriTemplate}\`.`],
        `(variables: ${type(t.variablesTypeName)}, ctx: ${rt("ResourceContext")}<ServerLists>) => ${promise(rt("ResourceHandlerResult"))}`,
      ),
    ),
    model.resourceTemplates[0],
  );
  const handledPrompts = model.prompts.filter((p) => p.needsHandler);
  group(
    "prompts",
    "One handler per prompt without messages in the manifest: `(args, ctx)`, required arguments already checked.",
    handledPrompts.map((p) =>
      member(
        p.name,
        [p.description ?? ""],
        `(args: ${type(p.argumentsTypeName)}, ctx: ${rt("PromptContext")}<ServerLists>) => ${promise(file.importType(LOCAL.runtimeShared, "GetPromptResult"))}`,
      ),
    ),
    handledPrompts[0],
  );

  if (model.auth?.verifier.kind === "handler")
    groups.push(
      `${docComment(
        [
          "`auth.verifier: handler`: checks the bearer token of each HTTP request. Answer who called (`clientId`, `scopes`, ...) for a token you accept, undefined for one you do not (the client gets 401); throw for a failure of your own (500). What it answers is `ctx.auth` in the handlers.",
        ],
        "  ",
      )}  verifyToken: ${rt("TokenVerifier")};\n`,
    );

  const handled = model.completions.filter((c) => c.handler);
  if (handled.length > 0) {
    const completionHandler = rt("CompletionHandler");
    const byRef = (ref: "prompt" | "resourceTemplate") => {
      const names = [...new Set(handled.filter((c) => c.ref === ref).map((c) => c.name))];
      return names.map((name) => {
        const args = handled.filter((c) => c.ref === ref && c.name === name).map((c) => `        ${typePropertyKey(c.argument)}: ${completionHandler};\n`);
        return `      ${typePropertyKey(name)}: {\n${args.join("")}      };\n`;
      });
    };
    const parts = [
      ...(byRef("prompt").length ? [`    prompts: {\n${byRef("prompt").join("")}    };\n`] : []),
      ...(byRef("resourceTemplate").length ? [`    resourceTemplates: {\n${byRef("resourceTemplate").join("")}    };\n`] : []),
    ];
    groups.push(
      `${docComment(["Completion handlers for the arguments and variables declared with `complete: handler`: `(value, ctx)` -> the values to offer. Without one, the answer is an empty list."], "  ")}  completions?: {\n${parts.join("")}  };\n`,
    );
  }

  const server = file.importType(SDK.server, "Server");
  const options = rt("ServerOptions");
  const factoryType = rt("ServerFactory");
  const factoryEvents = rt("FactoryEvents");
  const listsType = rt("Lists");
  const listNames = file.importType(LOCAL.types, "ListNames");
  file.exportDeclaration({
    doc: [`Switches the lists of ${model.name} at run time, by the manifest's names (docs/guides/lists.md): \`factory.lists\`, \`handle.lists\`.`],
    kind: "type",
    name: "ServerLists",
    text: ` = ${listsType}<${listNames}>;`,
  });
  const create = file.importValue(LOCAL.runtimeServer, "createManifestServerFactory");
  const definition = file.importValue(LOCAL.definition, "definition");
  file.exportDeclaration({
    doc: [`The code behind ${model.name}: exactly the handlers its manifest needs, keyed by MCP name.`],
    kind: "interface",
    name: "Handlers",
    text: ` {${groups.length ? `\n${groups.join("")}` : ""}}`,
  });
  const none: Record<HandlerGroup, string> = {
    tools: "it has no tools",
    resources: model.resources.length > 0 ? "each of its resources has its content in the manifest" : "it has no resources",
    resourceTemplates: "it has no resource templates",
    prompts: model.prompts.length > 0 ? "each of its prompts has its messages in the manifest" : "it has no prompts",
  };
  for (const kind of HANDLER_TYPES) exportHandlerType(file, model.name, kind, printed.get(kind.group) ?? none[kind.group]);
  const optional = model.needsHandlers ? "" : " = {}";
  // The parts the runtime core is handed (engine/parts.ts): validators.ts has a server's tool validators.
  const partList = [
    ...(model.runsTasks ? [`tasks: ${file.importValue(LOCAL.runtimeTasks, "tasks")}`] : []),
    ...(model.tools.length > 0 ? [`validators: ${file.importValue(LOCAL.validators, "createValidators")}`] : []),
  ];
  const parts = partList.length > 0 ? `, { ${partList.join(", ")} }` : "";
  const defaults = model.options.invalidArguments ? `{ invalidArguments: ${stringLiteral(model.options.invalidArguments)}, ...options }` : "options";
  file.exportDeclaration({
    doc: [
      `Makes the SDK Servers of ${model.name}, for the SDK's serving entries, which call it with the protocol era they serve (2025-era clients or 2026-07-28 requests). Every Server it makes shares one engine (validators, tasks). Lists are served verbatim from the manifest, less the entries \`lists\` switches off. With the SDK's \`createMcpHandler\`, pass \`{ bus: factory.bus }\` so that listen streams hear of list changes and resource updates.`,
      '@example\nimport { serveStdio } from "@modelcontextprotocol/server/stdio";\nserveStdio(createServerFactory(handlers));',
    ],
    kind: "function",
    name: "createServerFactory",
    text: `(handlers: Handlers${optional}, options?: ${options}): ${factoryType} & ${factoryEvents} & { readonly lists: ServerLists } {\n  return ${create}(${definition}, handlers, ${defaults}${parts});\n}`,
  });
  file.exportDeclaration({
    doc: [
      `One SDK Server for ${model.name}, for a transport you connect yourself: it serves 2025-era clients (initialize handshake), as any Server connected by hand does. For both eras use serveStdio / serveHttp (serve.ts), or createServerFactory with the SDK's entries.`,
      "@example\nconst server = createServer(handlers);\nawait server.connect(transport);",
    ],
    kind: "function",
    name: "createServer",
    text: `(handlers: Handlers${optional}, options?: ${options}): ${server} {\n  return createServerFactory(handlers, options)({ era: "legacy" });\n}`,
  });
  return [{ path: file.path, content: file.render() }];
}

type HandlerGroup = "tools" | "resources" | "resourceTemplates" | "prompts";

/** The type that names one handler of a `Handlers` group, for a handler in a file of its own (a stub). */
interface HandlerType {
  group: HandlerGroup;
  /** Its name in the public API (model/publicApi.ts). */
  name: string;
  /** What one handler is the handler of, and the parameters of its example. */
  of: string;
  parameters: string;
}

const HANDLER_TYPES: readonly HandlerType[] = [
  { group: "tools", name: "ToolHandler", of: "tool", parameters: "args, ctx" },
  { group: "resources", name: "ResourceHandler", of: "resource", parameters: "ctx" },
  { group: "resourceTemplates", name: "ResourceTemplateHandler", of: "resource template", parameters: "variables, ctx" },
  { group: "prompts", name: "PromptHandler", of: "prompt", parameters: "args, ctx" },
];

/**
 * `ToolHandler<"name">` and its kin: `Handlers["tools"]["name"]`, so a handler's signature follows
 * the manifest with one import, and `Handlers` stays the one place it is written. A server without
 * handlers of a kind still exports the type (the public API is the same for every server), taking
 * no name (`Name extends never`); `first` is then why it has none.
 */
function exportHandlerType(file: CodeFile, server: string, kind: HandlerType, first: { name: string; handlerName: string } | string): void {
  if (typeof first === "string") {
    file.exportDeclaration({
      doc: [`No ${kind.of} of ${server} needs a handler: ${first}.`],
      kind: "type",
      name: kind.name,
      text: "<Name extends never> = Name;",
    });
    return;
  }
  const member = `Handlers[${stringLiteral(kind.group)}]`;
  file.exportDeclaration({
    doc: [
      `The handler of one ${kind.of} of ${server}, by its MCP name, as \`Handlers\` declares it: the type of a handler in a file of its own.`,
      `@example\nexport const ${first.handlerName}: ${kind.name}<${stringLiteral(first.name)}> = async (${kind.parameters}) => { ... };`,
    ],
    kind: "type",
    name: kind.name,
    text: `<Name extends keyof ${member}> = ${member}[Name];`,
  });
}
