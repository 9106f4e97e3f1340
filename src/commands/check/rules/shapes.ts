/**
 * The result of each MCP method has a fixed shape (the specification's schema.ts): a server that
 * wraps it (`{prompt: {messages}}`), renames a member or sends a role MCP does not have breaks every
 * client, the SDK's included, which rejects the result.
 */
import { isRecord } from "../model.js";
import type { Paired } from "../pair/pairer.js";
import type { RuleContext } from "./context.js";

/** The member each method's result must have, as an array (or, for initialize, the members). */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  "tools/list": ["tools"],
  "resources/list": ["resources"],
  "resources/templates/list": ["resourceTemplates"],
  "prompts/list": ["prompts"],
  "tools/call": ["content"],
  "resources/read": ["contents"],
  "prompts/get": ["messages"],
};

const ROLES = new Set(["user", "assistant"]);

/**
 * A result that stands for the one the method names, to come later: 2026-07-28's "ask me first"
 * (`resultType: "input_required"`) and task (`resultType: "task"`), and 2025-11-25's task created
 * for a task-augmented tools/call (`{task}`).
 */
export function isInterimResult(method: string, result: unknown): boolean {
  if (!isRecord(result)) return false;
  if (result["resultType"] === "input_required" || result["resultType"] === "task") return true;
  return method === "tools/call" && isRecord(result["task"]) && !Object.hasOwn(result, "content");
}

export function checkResultShape({ event, shape, request }: Paired, ctx: RuleContext): void {
  if (shape.kind !== "response" || !shape.hasResult || shape.hasError || event.from !== "server" || !request) return;
  const result = shape.result;
  const method = request.method;
  if (method === "initialize") {
    const missing = ["protocolVersion", "capabilities", "serverInfo"].filter((k) => !isRecord(result) || result[k] === undefined);
    if (missing.length) ctx.report("result-shape", event.line, shape.id, `the initialize result has no ${missing.join(", ")}`);
    return;
  }
  if (isInterimResult(method, result)) return;
  checkShapeOf(method, method, result, event.line, shape.id, ctx);
}

/**
 * The members `method`'s result must have (a task's final result is judged as its tool's:
 * `shown` names where it came from, `tasks/result`).
 */
export function checkShapeOf(method: string, shown: string, result: unknown, line: number, id: unknown, ctx: RuleContext): void {
  const required = REQUIRED[method];
  if (!required) return;
  for (const key of required) {
    if (isRecord(result) && Array.isArray(result[key])) continue;
    const wrapped = isRecord(result)
      ? Object.keys(result).find((k) => isRecord(result[k]) && Array.isArray((result[k] as Record<string, unknown>)[key]))
      : undefined;
    ctx.report(
      "result-shape",
      line,
      id,
      wrapped
        ? `the ${shown} result wraps \`${key}\` in \`${wrapped}\`: it belongs at the top of the result`
        : `the ${shown} result has no \`${key}\` array${
            isRecord(result)
              ? ` (it has ${
                  Object.keys(result)
                    .map((k) => `\`${k}\``)
                    .join(", ") || "nothing"
                })`
              : ""
          }`,
    );
    return;
  }
  if (method === "prompts/get" && isRecord(result) && Array.isArray(result["messages"])) {
    const roles = [...new Set(result["messages"].map((m) => (isRecord(m) ? m["role"] : undefined)).filter((r) => !ROLES.has(r as string)))];
    if (roles.length)
      ctx.report(
        "result-shape",
        line,
        id,
        `prompts/get messages with role ${roles.map((r) => JSON.stringify(r)).join(", ")}: MCP prompt messages are "user" or "assistant"`,
        'give each message role "user" or "assistant" (a system prompt is a user message, or the prompt\'s description)',
      );
  }
}
