/**
 * The multi round-trip round: how one request runs a handler that may ask the client questions.
 * On 2025-era connections questions are real requests on the connection; on 2026-07-28 requests
 * the run stops at the first round of unanswered questions and the answer is `input_required`,
 * the answers so far sealed in the signed `requestState`; a tool's run may also turn into a task.
 */
import type { JsonObject } from "../../shared/definition.js";
import { ErrorCodes, rpcError } from "../../shared/errors.js";
import { InputRound, type InputChannel } from "./context.js";
import type { Call, EngineCore, ServerTasks } from "./engineCore.js";
import { stateBinding } from "./requestState.js";
import type { RunningTask } from "./parts.js";

/** What a handler run ended with, or that it asked a question on a 2026-07-28 request. */
export type RoundOutcome =
  | { value: unknown }
  | { error: unknown }
  | { inputRequired: JsonObject }
  | { task: RunningTask; tasks: ServerTasks; running: Promise<{ value: unknown } | { error: unknown }> };

/**
 * Runs a handler for one request. On 2025-era connections questions go to the client on the
 * connection; on 2026-07-28 requests the run stops at the first round of unanswered questions
 * and the answer is `input_required`, with the answers so far sealed in `requestState`.
 * `tasks`: given when the handler may turn the call into a 2026-07-28 task with ctx.startTask().
 */
export async function runRound(
  core: EngineCore,
  method: string,
  target: string,
  args: unknown,
  call: Call,
  tasks: ServerTasks | undefined,
  run: (channel: InputChannel, signal: AbortSignal, startTask: () => Promise<void>, task?: { id: string }) => Promise<unknown>,
): Promise<RoundOutcome> {
  const requestSignal = call.sdk.mcpReq.signal;
  if (call.era === "legacy") {
    try {
      return { value: await run(call.legacyChannel(undefined, requestSignal), requestSignal, async () => {}) };
    } catch (error) {
      return { error };
    }
  }
  // A call that may become a task gets its own signal: the request's until the task starts,
  // the task's after (tasks/cancel). Others use the request's as it is.
  let controller: AbortController | undefined;
  let unlink = () => {};
  const canTask = tasks !== undefined;
  if (canTask) {
    const own = new AbortController();
    const onAbort = () => own.abort(requestSignal.reason);
    if (requestSignal.aborted) onAbort();
    else requestSignal.addEventListener("abort", onAbort, { once: true });
    unlink = () => requestSignal.removeEventListener("abort", onAbort);
    controller = own;
  }
  const signal = controller?.signal ?? requestSignal;

  // The binding (a digest of the arguments) is computed only when a requestState is read or minted.
  const binding = () => stateBinding(method, target, args, call.base.auth);
  let earlier: Record<string, unknown> = {};
  const token = call.sdk.mcpReq.requestState();
  if (token !== undefined) {
    const opened = await core.states.open(await binding(), token);
    if ("refused" in opened) {
      unlink();
      throw rpcError(ErrorCodes.InvalidParams, "Invalid or expired requestState", { reason: opened.refused });
    }
    earlier = opened.answers;
  }
  // What stops the race before the handler ends: its questions, or the task it starts.
  let interrupt!: (why: "input" | { task: RunningTask; tasks: ServerTasks }) => void;
  const interrupted = new Promise<"input" | { task: RunningTask; tasks: ServerTasks }>((resolve) => (interrupt = resolve));
  // Made on the first question only: most calls ask none.
  let round: InputRound | undefined;
  const inputRound = () =>
    (round ??= new InputRound(earlier, call.sdk.mcpReq.inputResponses ?? {}, call.base.clientCapabilities, () => interrupt("input"), core.forms));
  let current: InputChannel | undefined;
  const channel: InputChannel = { ask: (request, key) => (current ?? inputRound()).ask(request, key) };
  let starting = false;
  const taskRef: { id: string } | undefined = canTask ? { id: "" } : undefined;
  const startTask = async () => {
    if (!tasks || starting) return;
    starting = true;
    let created: RunningTask;
    try {
      created = await tasks.create("modern", call.owner, call.base.clientCapabilities);
    } catch (error) {
      starting = false;
      throw error;
    }
    taskRef!.id = created.id;
    unlink();
    // Held by the task's live state only: it goes when the task ends.
    const taskSignal = created.controller.signal;
    taskSignal.addEventListener("abort", () => controller!.abort(taskSignal.reason), { once: true });
    current = tasks.channel(created);
    interrupt({ task: created, tasks });
  };
  // A handler that throws before its first await rejects here like one that throws after it.
  const running = (async () => run(channel, signal, startTask, taskRef))().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const first = await Promise.race([running, interrupted]);
  // The call is a task now: the caller records how the handler ends.
  if (first !== "input" && "task" in first) return { task: first.task, tasks: first.tasks, running };
  unlink();
  if (first !== "input") return first;
  // The run stops here: its pending questions never settle (a task-capable run's signal aborts).
  controller?.abort(new Error("input required: the client will retry with its answers"));
  const asked = inputRound();
  if (asked.invalid) throw rpcError(ErrorCodes.InvalidParams, `Invalid input response '${asked.invalid.key}': ${asked.invalid.problem}`);
  const inputRequests = Object.fromEntries(asked.pending);
  return { inputRequired: { resultType: "input_required", inputRequests, requestState: await core.states.mint(await binding(), { answers: asked.consumed }) } };
}
