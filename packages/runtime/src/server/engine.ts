/**
 * The generated server's engine: answers MCP requests from a ServerDefinition and the user's
 * handlers, in both protocol eras. One engine serves every SDK Server instance a factory makes
 * (one per 2026-07-28 request, per 2025-era connection or session), so validators and tasks are
 * shared. The SDK owns the protocol (initialize, server/discover, the envelope, resultType,
 * transports, subscriptions/listen); the engine owns every method the manifest serves.
 *
 * One method table drives both what the engine offers and how it answers: each capability module
 * gives its rows (tools.ts, resources.ts, prompts.ts, completion.ts, and the tasks part's
 * tasks/*), none when the manifest does not serve the capability, each row for both eras or for one.
 */
import type { JsonObject, ServerDefinition } from "../shared/definition.js";
import { ErrorCodes, rpcError } from "../shared/errors.js";
import { completionMethods } from "./methods/completion.js";
import type { Call, EngineCore, MethodEntry, MethodHandler, ServerTasks, TasksPart } from "./engine/engineCore.js";
import type { RuntimeHandlers, ServerOptions } from "./engine/handlerTypes.js";
import { manifestLists } from "./engine/lists.js";
import { ListSwitch } from "./engine/listSwitch.js";
import { promptMethods } from "./methods/prompts.js";
import { RequestStateCodec } from "./engine/requestState.js";
import { resourceMethods } from "./methods/resources.js";
import type { ProtocolEra } from "./engine/sdk.js";
import { toolMethods } from "./methods/tools.js";
import { SchemaValidators, type PrintedValidators } from "../shared/validation.js";
import { DEFAULT_MAX_PATTERN_INPUT, DEFAULT_MAX_PATTERN_MS, withFallback } from "../shared/patterns.js";
import { DEFAULT_MAX_FORM_VALIDATORS, FormValidators } from "./engine/forms.js";
import { positiveOption } from "./engine/options.js";
import { loadCompiler, plannerNow } from "./engine/planner.js";

export { isObject, type Call } from "./engine/engineCore.js";

/**
 * Every method the manifest serves, in the order they are registered with the SDK: when each is
 * offered (its capability, and its era when it has one) and what answers it.
 */
function methodTable(core: EngineCore): MethodEntry[] {
  return [...toolMethods(core), ...resourceMethods(core), ...promptMethods(core), ...completionMethods(core), ...(core.tasks?.methods(core) ?? [])];
}

/** The optional parts a factory is given (engine/parts.ts): the generated server.ts passes those its manifest needs. */
export interface ServerParts {
  /** `tasks` of `@mcpgen/runtime/server/tasks`: needed when a tool declares `execution.taskSupport`. */
  tasks?: TasksPart;
  /**
   * `createValidators` of the generated `validators.ts`: the tools' validators, printed by mcpgen
   * at generate time. Without it (a definition written by hand) they are compiled at run time,
   * which platforms that forbid code from strings (Cloudflare Workers) refuse.
   */
  validators?: PrintedValidators;
}

export class Engine {
  /** The server's tasks, when a tool declares task support (the `tasks` capability, or the extension). */
  readonly tasks: ServerTasks | undefined;
  /** The validators of the forms handlers ask for (elicitation). */
  readonly forms: FormValidators;
  /** Which entries are enabled now: the factory's and the handlers' `lists`. */
  readonly switches: ListSwitch;
  /** The method table, by era: what methods() lists and handle() answers. */
  private readonly routes: Record<ProtocolEra, Map<string, MethodHandler>> = { legacy: new Map(), modern: new Map() };

  constructor(
    readonly definition: ServerDefinition,
    handlers: RuntimeHandlers,
    options: ServerOptions,
    parts: ServerParts = {},
  ) {
    const taskTools = Object.keys(definition.taskSupport ?? {}).length > 0;
    if (taskTools && parts.tasks === undefined)
      throw new Error(
        `mcpgen: ${definition.serverInfo.name} has tools that run as tasks, and the factory was given no tasks part: regenerate the server (its server.ts passes \`tasks\` from @mcpgen/runtime/server/tasks)`,
      );
    const validation = {
      maxPatternInput: positiveOption(options.maxPatternInputLength, DEFAULT_MAX_PATTERN_INPUT, "maxPatternInputLength"),
      maxPatternMs: positiveOption(options.maxPatternMs, DEFAULT_MAX_PATTERN_MS, "maxPatternMs"),
    };
    const forms = new FormValidators(positiveOption(options.maxFormValidators, DEFAULT_MAX_FORM_VALIDATORS, "maxFormValidators"), validation);
    const plans = definition.patterns ?? {};
    const core: EngineCore = {
      definition,
      handlers,
      options,
      // The definition's plans; a pattern it lacks (a definition written by hand) goes to the same
      // translator. ajv and the translator load only for a schema without a printed validator,
      // RE2JS only when a pattern runs on it.
      validators: new SchemaValidators(
        withFallback(plans, (source) => plannerNow()(source)),
        validation,
        parts.validators && {
          make: parts.validators,
          schemas: () => definition.tools.map((tool) => [tool.name, tool.inputSchema, tool.outputSchema] as const),
        },
        loadCompiler,
      ),
      forms,
      lists: manifestLists(definition),
      switches: new ListSwitch(definition),
      onError: options.onError ?? ((error, where) => console.error(`[mcpgen] ${where.method}${where.name ? ` ${where.name}` : ""} failed:`, error)),
      states: new RequestStateCodec(options.requestStateSecret, options.requestStateTtlMs ?? 600_000),
      tasks: taskTools ? parts.tasks?.make(options, (error) => core.onError(error, { method: "tasks" }), forms) : undefined,
    };
    this.tasks = core.tasks;
    this.forms = forms;
    this.switches = core.switches;
    for (const entry of methodTable(core)) {
      for (const era of entry.era === undefined ? (["legacy", "modern"] as const) : [entry.era]) this.routes[era].set(entry.method, entry.handle);
    }
  }

  /** The methods this server answers, in the era given (the SDK answers -32601 for the others). */
  methods(era: ProtocolEra): string[] {
    return [...this.routes[era].keys()];
  }

  async handle(method: string, params: JsonObject, call: Call, subscriptions: Set<string>): Promise<object> {
    const handler = this.routes[call.era].get(method);
    if (!handler) throw rpcError(ErrorCodes.MethodNotFound, "Method not found");
    return handler(params, call, subscriptions);
  }
}
