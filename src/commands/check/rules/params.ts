/**
 * The client's requests against what the server offers: params fields under other names, tools,
 * resources and prompts it does not have, and arguments that break the tool's inputSchema
 * (checked by the generated servers' own validators: packages/runtime/src/shared/validation.ts).
 */
import { didYouMean } from "../../../common/didYouMean.js";
import { isRecord } from "../model.js";
import type { Paired } from "../pair/pairer.js";
import type { RuleContext } from "./context.js";
import { unknownNames } from "./arguments.js";
import { problemsOf } from "./validate.js";

/** Per method, the names people write for a field, and the field MCP names. */
const MISNAMED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "tools/call": {
    tool: "name",
    toolName: "name",
    tool_name: "name",
    args: "arguments",
    input: "arguments",
    parameters: "arguments",
    params: "arguments",
    toolArgs: "arguments",
  },
  "prompts/get": { prompt: "name", promptName: "name", args: "arguments", input: "arguments", parameters: "arguments" },
  "resources/read": { resourceId: "uri", resource: "uri", resourceUri: "uri", url: "uri", id: "uri" },
  "resources/subscribe": { resourceId: "uri", resource: "uri", resourceUri: "uri", url: "uri" },
  "resources/unsubscribe": { resourceId: "uri", resource: "uri", resourceUri: "uri", url: "uri" },
};

export function checkParams({ event, shape, request }: Paired, ctx: RuleContext): void {
  if (shape.kind !== "request" || event.from !== "client") return;
  const params = isRecord(shape.params) ? shape.params : {};
  const aliases = MISNAMED[shape.method];
  let misnamed = false;
  if (aliases)
    for (const [wrong, right] of Object.entries(aliases)) {
      if (!Object.hasOwn(params, wrong) || Object.hasOwn(params, right)) continue;
      misnamed = true;
      ctx.report(
        "misnamed-param",
        event.line,
        shape.id,
        `${shape.method} params has \`${wrong}\` where MCP names it \`${right}\``,
        `rename \`${wrong}\` to \`${right}\`: ${shape.method} takes ${shape.method === "resources/read" || shape.method.startsWith("resources/") ? "{uri}" : "{name, arguments}"}`,
      );
    }
  if (misnamed) return;
  const { catalog } = ctx;
  if (shape.method === "tools/call" && typeof params["name"] === "string" && catalog.isKnown("tools")) {
    const name = params["name"];
    const tool = catalog.tools.get(name);
    if (!tool) {
      if (request) request.unknownName = "tool";
      const near = didYouMean(name, catalog.tools.keys());
      ctx.report(
        "unknown-tool",
        event.line,
        shape.id,
        `tools/call of unknown tool ${JSON.stringify(name)}${near ? ` (did you mean \`${near}\`?)` : ""}; tools of ${catalog.source("tools")}: ${[...catalog.tools.keys()].join(", ") || "none"}`,
        near ? `call \`${near}\`` : undefined,
      );
      return;
    }
    const problem = problemsOf(ctx, tool.inputSchema, params["arguments"] ?? {});
    if (problem !== undefined) {
      if (request) request.argsInvalid = true;
      ctx.report("invalid-arguments", event.line, shape.id, `arguments of ${name} break its inputSchema: ${problem}`);
    }
    for (const unknown of unknownNames(tool.inputSchema, params["arguments"]))
      ctx.report(
        "unknown-argument",
        event.line,
        shape.id,
        `argument \`${unknown.name}\` of ${name} (at ${unknown.at}) is not in its inputSchema${unknown.near ? ` (did you mean \`${unknown.near}\`?)` : ""}`,
        unknown.near ? `rename \`${unknown.name}\` to \`${unknown.near}\`` : undefined,
      );
  } else if (shape.method === "prompts/get" && typeof params["name"] === "string" && catalog.prompts.has(params["name"])) {
    const declared = catalog.promptArguments.get(params["name"]) ?? [];
    const args = isRecord(params["arguments"]) ? Object.keys(params["arguments"]) : [];
    for (const arg of args.filter((a) => !declared.includes(a)).slice(0, 20)) {
      const near = didYouMean(arg, declared);
      ctx.report(
        "unknown-argument",
        event.line,
        shape.id,
        `argument \`${arg}\` of prompt ${params["name"]} is not one it declares (${declared.map((d) => `\`${d}\``).join(", ") || "none"})${near ? `: did you mean \`${near}\`?` : ""}`,
        near ? `rename \`${arg}\` to \`${near}\`` : undefined,
      );
    }
  } else if (shape.method === "prompts/get" && typeof params["name"] === "string" && catalog.isKnown("prompts") && !catalog.prompts.has(params["name"])) {
    const near = didYouMean(params["name"], catalog.prompts);
    ctx.report(
      "unknown-prompt",
      event.line,
      shape.id,
      `prompts/get of unknown prompt ${JSON.stringify(params["name"])}${near ? ` (did you mean \`${near}\`?)` : ""}`,
      near ? `ask for \`${near}\`` : undefined,
    );
  } else if (shape.method === "resources/read" && typeof params["uri"] === "string" && !catalog.hasResource(params["uri"])) {
    if (catalog.isKnown("resources")) {
      if (request) request.unknownName = "resource";
      unknownResource(params["uri"], event.line, shape.id, "no template matches", ctx);
    }
    // Resources listed, templates not yet: the URI may match a template; the server's answer tells.
    else if (catalog.resourcesListed() && request) request.uriUnlisted = true;
  }
}

/** resources/read of a URI no listed resource has, before any template list: unknown when the server says it is not found. */
export function checkUnlistedResource({ shape, request }: Paired, ctx: RuleContext): void {
  if (shape.kind !== "response" || !request?.uriUnlisted || request.name === undefined || !isRecord(shape.error)) return;
  const code = shape.error["code"];
  if (code === -32002 || code === -32602) unknownResource(request.name, request.line, request.id, `the server answered ${code}`, ctx);
}

function unknownResource(uri: string, line: number, id: unknown, why: string, ctx: RuleContext): void {
  const near = didYouMean(uri, ctx.catalog.resources);
  ctx.report(
    "unknown-resource",
    line,
    id,
    `resources/read of unknown resource ${JSON.stringify(uri)}${near ? ` (did you mean \`${near}\`?)` : ""}: no resource of ${ctx.catalog.source("resources")} has it and ${why}`,
    near ? `read \`${near}\`` : undefined,
  );
}
