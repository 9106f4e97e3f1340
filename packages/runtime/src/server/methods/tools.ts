/**
 * tools/list and tools/call: arguments checked against the inputSchema, the handler run (in a
 * round, perhaps as a task in either era), its output checked against the outputSchema or the
 * SDK's CallToolResult, and a failed or refused call answered as an isError result.
 */
import type { JsonObject, ServerDefinition, WireTool } from "../../shared/definition.js";
import { ErrorCodes, MissingClientCapabilityError, ToolError, rpcError } from "../../shared/errors.js";
import type { CallToolResult } from "../../shared/mcp.js";
import { handlerContext, expectedFields, isObject, ownFunction, schemaProblems, type Call, type EngineCore, type MethodEntry } from "../engine/engineCore.js";
import { jsonRpcCode, passesThrough } from "../engine/handlerErrors.js";
import type { ToolContext } from "../engine/handlerTypes.js";
import { listMethod, shown } from "../engine/lists.js";
import { runRound } from "../engine/round.js";
import { CallToolResultSchema } from "../engine/sdk.js";
import { RELATED_TASK, TASKS_EXTENSION, type RunningTask, type TaskOutcome } from "../engine/parts.js";
import type { ServerTasks } from "../engine/engineCore.js";

/** The rows of the method table for tools (none without the capability). */
export function toolMethods(core: EngineCore): MethodEntry[] {
  if (!core.definition.capabilities.tools) return [];
  const tools = new ToolCalls(core);
  return [listMethod(core, "tools"), { method: "tools/call", handle: (params, call) => tools.callTool(params, call) }];
}

/** How a tool runs as a task, as the definition says: "forbidden" when it does not name the tool. */
function taskSupport(definition: ServerDefinition, name: string): "forbidden" | "optional" | "required" {
  const support = definition.taskSupport;
  return support !== undefined && Object.hasOwn(support, name) ? support[name]! : "forbidden";
}

/** The answer OpenAI's Apps SDK reads to start OAuth and retry (`mcp/www_authenticate`, SEP-1489). */
function needsAuthorization(name: string, challenge: string | undefined): CallToolResult {
  return {
    content: [{ type: "text", text: `Tool ${name} needs authorization: sign in to this server, then call it again` }],
    isError: true,
    ...(challenge === undefined ? {} : { _meta: { "mcp/www_authenticate": [challenge] } }),
  };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

class ToolCalls {
  private readonly tools = new Map<string, WireTool>();

  constructor(private readonly core: EngineCore) {
    for (const tool of core.definition.tools) this.tools.set(tool.name, tool);
  }

  async callTool(params: JsonObject, call: Call): Promise<object> {
    if (typeof params["name"] !== "string")
      throw rpcError(ErrorCodes.InvalidParams, expectedFields("tools/call", params, "'name' (string) and optional 'arguments' (object)"));
    const name = params["name"];
    const tool = this.tools.get(name);
    // A tool switched off, or hidden from this caller, is unknown to it.
    if (!tool || !shown(this.core, call, "tools", name)) throw rpcError(ErrorCodes.InvalidParams, `Unknown tool: ${name}`);
    // A protected tool called without a token (a server mixing `auth: none` entries): the tool-error form.
    if (call.anonymous && this.core.definition.auth?.tools[name] !== "none") return needsAuthorization(name, call.anonymous.challenge(name));
    const args = params["arguments"] ?? {};
    if (!isObject(args)) throw rpcError(ErrorCodes.InvalidParams, `Invalid params: 'arguments' of tools/call must be an object`);

    const support = taskSupport(this.core.definition, name);
    const capabilities = call.base.clientCapabilities;
    // Present when a tool declares task support (the factory refuses such a definition without them).
    const tasks = this.core.tasks;
    // A 2025-11-25 task-augmented call: the task is made once the call is known to run (below).
    let legacyTask: { ttl: unknown; tasks: ServerTasks } | undefined;
    if (call.era === "legacy" && tasks) {
      // 2025-11-25 tool-level negotiation: -32601 for the call a tool's taskSupport rules out.
      const augmented = isObject(params["task"]);
      if (augmented && support === "forbidden")
        throw rpcError(ErrorCodes.MethodNotFound, `Tool ${name} does not support task-augmented execution (its execution.taskSupport is "forbidden")`);
      if (!augmented && support === "required")
        throw rpcError(ErrorCodes.MethodNotFound, `Tool ${name} requires task-augmented execution: call it with params.task`);
      if (augmented) legacyTask = { ttl: (params["task"] as JsonObject)["ttl"], tasks };
    }
    // A refused task-augmented call still answers with a task (the client waits for one), ended at once.
    const refuse = async (message: string): Promise<object> => {
      if (!legacyTask) return errorResult(message);
      const task = await legacyTask.tasks.create("legacy", call.owner, capabilities, legacyTask.ttl);
      const ended = await legacyTask.tasks.finish(task, { result: errorResult(message) as JsonObject });
      return { task: legacyTask.tasks.legacyView(ended ?? task.created) };
    };
    const extension = call.era === "modern" && isObject(capabilities["extensions"]) && isObject(capabilities["extensions"][TASKS_EXTENSION]);
    if (call.era === "modern" && support === "required" && !extension) {
      throw new MissingClientCapabilityError(
        { extensions: { [TASKS_EXTENSION]: {} } },
        `Tool ${name} runs only as a task: declare the ${TASKS_EXTENSION} extension in the request's client capabilities`,
      );
    }

    // Printed validators are ready at once; a schema without one waits for ajv the first time.
    const loading = this.core.validators.prepare(tool.inputSchema, tool.outputSchema);
    if (loading) await loading;
    let problems: string | undefined;
    try {
      problems = this.core.validators.check(tool.inputSchema, args);
    } catch (error) {
      // A recursive schema walks the data as deep as it goes: a hostile nesting ends here.
      if (!(error instanceof RangeError)) throw error;
      problems = "Arguments are nested too deeply to check";
    }
    if (problems !== undefined) {
      const message = `Invalid arguments for tool ${name}: ${problems}`;
      if (this.core.options.invalidArguments === "protocol-error") throw rpcError(ErrorCodes.InvalidParams, message);
      return refuse(message);
    }
    const handler = ownFunction(this.core.handlers.tools, name);
    if (!handler) return refuse(`Tool ${name} has no handler on this server`);

    const run = async (ctx: ToolContext): Promise<unknown> => this.toolOutput(tool, await (handler as (a: unknown, c: ToolContext) => unknown)(args, ctx));
    const settle = (outcome: { value: unknown } | { error: unknown }): CallToolResult => {
      if ("value" in outcome) return outcome.value as CallToolResult;
      const error = outcome.error;
      if (error instanceof ToolError) return errorResult(error.message);
      // A missing capability is -32021 on 2026-07-28 requests; 2025-11-25 has no such error.
      if (passesThrough(error, call.era)) throw error;
      // A handler that stopped because the call was cancelled did not fail: nothing to report.
      if (!call.sdk.mcpReq.signal.aborted) this.core.onError(error, { method: "tools/call", name });
      return errorResult(`Tool ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    };

    if (legacyTask) {
      const own = legacyTask.tasks;
      const task = await own.create("legacy", call.owner, capabilities, legacyTask.ttl, call.statusSink);
      const meta = { [RELATED_TASK]: { taskId: task.id } };
      const signal = task.controller.signal;
      const channel = call.legacyChannel(meta, signal, (on) => own.waiting(task, on));
      const ctx: ToolContext = { ...handlerContext(call, channel, signal), tool: name, startTask: async () => {}, task: { id: task.id } };
      this.finishTask(
        own,
        name,
        task,
        run(ctx).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        ),
        settle,
      );
      return { task: own.legacyView(task.created) };
    }

    const outcome = await runRound(
      this.core,
      "tools/call",
      name,
      args,
      call,
      extension && support !== "forbidden" ? tasks : undefined,
      (channel, signal, startTask, task) => run({ ...handlerContext(call, channel, signal), tool: name, startTask, ...(task ? { task } : {}) }),
    );
    if ("inputRequired" in outcome) return outcome.inputRequired;
    if ("task" in outcome) {
      this.finishTask(outcome.tasks, name, outcome.task, outcome.running, settle);
      return { resultType: "task", ...outcome.tasks.modernView(outcome.task.created, false) };
    }
    return settle(outcome);
  }

  /** A tool's return value as the CallToolResult that goes out, checked; bad output is an isError result. */
  private toolOutput(tool: WireTool, output: unknown): CallToolResult {
    const name = tool.name;
    if (tool.outputSchema !== undefined) {
      // Check what will be on the wire: JSON turns NaN into null and drops undefined.
      let text: string | undefined;
      try {
        text = JSON.stringify(output);
      } catch (error) {
        return this.badOutput(name, `Tool ${name} returned output that is not JSON: ${error instanceof Error ? error.message : String(error)}`);
      }
      const wire: unknown = text === undefined ? undefined : JSON.parse(text);
      const outputProblems = isObject(wire) ? this.core.validators.check(tool.outputSchema, wire) : "Output must be an object";
      if (outputProblems !== undefined) return this.badOutput(name, `Tool ${name} returned output that does not match its outputSchema: ${outputProblems}`);
      return { content: [{ type: "text", text: text! }], structuredContent: wire as JsonObject };
    }
    if (typeof output === "string") return { content: [{ type: "text", text: output }] };
    const resultProblems = schemaProblems(CallToolResultSchema, output);
    if (isObject(output) && Array.isArray(output["content"]) && resultProblems === undefined) return output as CallToolResult;
    return this.badOutput(
      name,
      `Tool ${name} returned neither a string nor a valid CallToolResult${resultProblems === undefined ? "" : `: ${resultProblems}`}`,
    );
  }

  /**
   * Records how a task's handler ended, the way the call itself would have answered: a result
   * (isError ones included) completes the task, an error with a JSON-RPC code fails it.
   */
  private finishTask(
    tasks: ServerTasks,
    name: string,
    task: RunningTask,
    running: Promise<{ value: unknown } | { error: unknown }>,
    settle: (outcome: { value: unknown } | { error: unknown }) => CallToolResult,
  ): void {
    void running
      .then(async (outcome) => {
        // Cancelled (or expired, or ended elsewhere): the handler's end is nobody's business.
        if (task.controller.signal.aborted) return;
        let ended: TaskOutcome;
        try {
          ended = { result: settle(outcome) as JsonObject };
        } catch (error) {
          const data = isObject(error) ? error["data"] : undefined;
          ended = {
            error: {
              code: jsonRpcCode(error) ?? ErrorCodes.InternalError,
              message: error instanceof Error ? error.message : String(error),
              ...(data === undefined ? {} : { data }),
            },
          };
        }
        await tasks.finish(task, ended);
      })
      // The store could not be written (Redis unreachable): readers find the task stopped once its lease lapses.
      .catch((error: unknown) => this.core.onError(error, { method: "tools/call", name }));
  }

  /** Output a tool should never have returned: logged, and answered as an isError result. */
  private badOutput(name: string, message: string): CallToolResult {
    this.core.onError(new Error(message), { method: "tools/call", name });
    return errorResult(message);
  }
}
