/**
 * The handler context (`ctx`) and the one API it gives handlers to ask the client for input
 * (`elicit`, `sample`, `listRoots`), served four ways:
 *
 * - 2025-era connections: a real server-to-client request on the live connection;
 * - 2026-07-28 requests: an `input_required` result (multi round-trip requests). The client
 *   answers by retrying the request with `inputResponses`; the handler is then run again from the
 *   start, and each question it asked before is answered at once from what the client said, kept
 *   between rounds in a signed `requestState`;
 * - a 2025-era task: a request tagged with the task, the task `input_required` meanwhile;
 * - a 2026-07-28 task: the task goes `input_required` with the question in `tasks/get`, and the
 *   client answers with `tasks/update`.
 */
import type { JsonObject } from "../../shared/definition.js";
import { MissingClientCapabilityError } from "../../shared/errors.js";
import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema, type ResultSchema } from "./sdk.js";
import type { FormValidators } from "./forms.js";
import type { InputOptions, RequestContext } from "./handlerTypes.js";
import type { InputRequest } from "./parts.js";
import type { CreateMessageResult, ElicitResult, ListRootsResult } from "../../shared/mcp.js";

/** Where a handler's questions go; the context builds elicit/sample/listRoots on one of these. */
export interface InputChannel {
  ask(request: InputRequest, key: string): Promise<unknown>;
}

const KIND: Record<InputRequest["method"], { prefix: string; capability: string; schema: ResultSchema }> = {
  "elicitation/create": { prefix: "elicitation", capability: "elicitation", schema: ElicitResultSchema },
  "sampling/createMessage": { prefix: "sampling", capability: "sampling", schema: CreateMessageResultSchema },
  "roots/list": { prefix: "roots", capability: "roots", schema: ListRootsResultSchema },
};

/** The three ways to ask, on any channel, with keys counted per kind. */
export function inputMethods(channel: InputChannel): Pick<RequestContext, "elicit" | "sample" | "listRoots"> {
  let counters: Map<string, number> | undefined;
  const key = (method: InputRequest["method"], options?: InputOptions) => {
    if (options?.key !== undefined) return options.key;
    const prefix = KIND[method].prefix;
    counters ??= new Map();
    const n = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, n);
    return `${prefix}-${n}`;
  };
  return {
    elicit: (params, options) =>
      channel.ask(
        { method: "elicitation/create", params: { mode: "form", ...params } as JsonObject },
        key("elicitation/create", options),
      ) as Promise<ElicitResult>,
    sample: (params, options) =>
      channel.ask({ method: "sampling/createMessage", params: params as JsonObject }, key("sampling/createMessage", options)) as Promise<CreateMessageResult>,
    listRoots: (options) => channel.ask({ method: "roots/list" }, key("roots/list", options)) as Promise<ListRootsResult>,
  };
}

/** Rejects when the client's declared capabilities do not cover `request`. */
export function checkCapability(request: InputRequest, capabilities: JsonObject | undefined): MissingClientCapabilityError | undefined {
  const name = KIND[request.method].capability;
  const declared = capabilities?.[name];
  if (typeof declared === "object" && declared !== null) return undefined;
  return new MissingClientCapabilityError({ [name]: {} }, `The client did not declare the ${name} capability, which ${request.method} needs`);
}

/** The form of a form elicitation, if `request` is one with a schema. */
function requestedSchema(request: InputRequest): object | undefined {
  if (request.method !== "elicitation/create") return undefined;
  const schema = request.params?.["requestedSchema"];
  return typeof schema === "object" && schema !== null ? schema : undefined;
}

/** Undefined when the form of `request` (if any) can be checked now, else a promise that settles when it can (FormValidators.prepare). */
export function formReady(request: InputRequest, forms: FormValidators): Promise<void> | undefined {
  const schema = requestedSchema(request);
  return schema === undefined ? undefined : forms.prepare(schema);
}

/**
 * Why the server cannot ask `request` (a form it could not check the answer to: a pattern the
 * linear-time engine cannot run, a schema ajv refuses), as an error for the handler; undefined
 * when it can. Checked when the handler asks, before anything goes to the client.
 */
export function questionRefused(request: InputRequest, forms: FormValidators): Error | undefined {
  const schema = requestedSchema(request);
  const problem = schema === undefined ? undefined : forms.problem(schema);
  return problem === undefined ? undefined : new TypeError(`elicitation/create: the requestedSchema cannot be checked: ${problem}`);
}

/**
 * Undefined when `response` is a valid answer to `request` (for a form elicitation that is
 * accepted, its content must also match the requested schema), else the problem in words.
 */
export function responseProblem(request: InputRequest, response: unknown, forms: FormValidators): string | undefined {
  const parsed = KIND[request.method].schema.safeParse(response);
  if (!parsed.success)
    return parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.map(String).join(".") || "response"} ${i.message}`)
      .join("; ");
  const schema = requestedSchema(request);
  const answer = response as ElicitResult;
  if (schema !== undefined && answer.action === "accept") return forms.check(schema, answer.content ?? {});
  return undefined;
}

/** An error for a handler's promise: rejects once, asynchronously, like a failed request would. */
export function rejected(error: Error): Promise<never> {
  return Promise.reject(error);
}

/**
 * 2026-07-28 multi round-trip: one run of a handler. Questions already answered (in this retry's
 * `inputResponses` or an earlier round's `requestState`) resolve at once; the others are collected
 * and, once the handler has asked everything it asks without an answer, `needed` is called so
 * the engine can answer `input_required`. The handler's pending questions never settle: its run ends
 * there (its signal is aborted) and it runs again from the start on the retry.
 */
export class InputRound implements InputChannel {
  /** Answers consumed by this run: they go into the next requestState. */
  readonly consumed: Record<string, unknown> = {};
  readonly pending = new Map<string, InputRequest>();
  /** Set when an answer in this retry is not a valid answer to its question. */
  invalid: { key: string; problem: string } | undefined;
  private scheduled = false;

  constructor(
    /** Answers from the verified requestState of earlier rounds. */
    private readonly earlier: Record<string, unknown>,
    /** This retry's inputResponses (untrusted). */
    private readonly responses: Record<string, unknown>,
    private readonly capabilities: JsonObject | undefined,
    /** Called once the handler has asked everything it asks without an answer. */
    private readonly needed: () => void,
    private readonly forms: FormValidators,
  ) {}

  ask(request: InputRequest, key: string): Promise<unknown> {
    // First: an answer the client sends for a capability it does not declare (in this request's
    // envelope) is not one the handler may see.
    const missing = checkCapability(request, this.capabilities);
    if (missing) return rejected(missing);
    const loading = formReady(request, this.forms);
    if (loading) return loading.then(() => this.ask(request, key));
    const refused = questionRefused(request, this.forms);
    if (refused) return rejected(refused);
    if (Object.hasOwn(this.earlier, key)) {
      this.consumed[key] = this.earlier[key];
      return Promise.resolve(this.earlier[key]);
    }
    if (Object.hasOwn(this.responses, key)) {
      const response = this.responses[key];
      const problem = responseProblem(request, response, this.forms);
      if (problem === undefined) {
        this.consumed[key] = response;
        return Promise.resolve(response);
      }
      this.invalid ??= { key, problem };
      this.signal();
      return new Promise(() => {});
    }
    this.pending.set(key, request);
    this.signal();
    return new Promise(() => {});
  }

  /** Once the handler's synchronous asks are all in (after the current microtasks), report. */
  private signal(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // A macrotask: every microtask of the run (its other questions, in Promise.all) comes first.
    setTimeout(this.needed, 0);
  }
}

/** 2025-era connections: a real request to the client, answered on the same connection. */
export class LegacyChannel implements InputChannel {
  constructor(
    private readonly send: (request: { method: string; params?: object }, options?: object) => Promise<unknown>,
    private readonly capabilities: JsonObject | undefined,
    /** Added to each request's `_meta` (a task's related-task tag). */
    private readonly meta: JsonObject | undefined,
    private readonly signal: AbortSignal,
    private readonly forms: FormValidators,
    private readonly waiting?: (on: boolean) => void,
  ) {}

  async ask(request: InputRequest, _key: string): Promise<unknown> {
    const missing = checkCapability(request, this.capabilities);
    if (missing) throw missing;
    await formReady(request, this.forms);
    const refused = questionRefused(request, this.forms);
    if (refused) throw refused;
    const params = this.meta ? { ...request.params, _meta: { ...(request.params?.["_meta"] as JsonObject | undefined), ...this.meta } } : request.params;
    this.waiting?.(true);
    try {
      // Elicitation waits for a person: no request timeout (the call's own signal still cancels).
      const response = await this.send({ method: request.method, ...(params === undefined ? {} : { params }) }, { signal: this.signal, timeout: 2 ** 31 - 1 });
      const problem = responseProblem(request, response, this.forms);
      if (problem !== undefined) throw new Error(`The client's answer to ${request.method} is invalid: ${problem}`);
      return response;
    } finally {
      this.waiting?.(false);
    }
  }
}
