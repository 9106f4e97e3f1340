/**
 * tasks/* in the form of the request's era: 2025-11-25 tasks/get, tasks/result, tasks/list and
 * tasks/cancel; 2026-07-28 tasks/get, tasks/update and tasks/cancel, for clients that declare
 * the tasks extension. Offered when a tool declares task support.
 */
import type { JsonObject } from "../../shared/definition.js";
import { ErrorCodes, MissingClientCapabilityError, rpcError } from "../../shared/errors.js";
import { isObject, type Call, type MethodEntry } from "../engine/engineCore.js";
import type { TaskCaller } from "../engine/owner.js";
import { RELATED_TASK, TASKS_EXTENSION } from "../engine/parts.js";
import { MAX_TASK_PAGE, TASK_PAGE, type Tasks } from "./tasks.js";
import { isTerminal } from "./taskStore.js";

const LEGACY = ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"];
const MODERN = ["tasks/get", "tasks/update", "tasks/cancel"];

/** The rows of the method table for tasks; `pageSize`: the server's, for tasks/list. */
export function taskMethods(owned: Tasks, pageSize: number | undefined): MethodEntry[] {
  const tasks = new TaskMethods(owned, pageSize);
  return [
    ...LEGACY.map((method): MethodEntry => ({ method, era: "legacy", handle: (params, call) => tasks.taskMethod(method, params, call) })),
    ...MODERN.map((method): MethodEntry => ({ method, era: "modern", handle: (params, call) => tasks.taskMethod(method, params, call) })),
  ];
}

class TaskMethods {
  constructor(
    private readonly tasks: Tasks,
    private readonly pageSize: number | undefined,
  ) {}

  /** tasks/*, in the form of the request's era. */
  async taskMethod(method: string, params: JsonObject, call: Call): Promise<object> {
    const caller: TaskCaller = { era: call.era, owner: call.owner };
    if (call.era === "modern") {
      const caps = call.base.clientCapabilities;
      if (!(isObject(caps["extensions"]) && isObject(caps["extensions"][TASKS_EXTENSION]))) {
        throw new MissingClientCapabilityError(
          { extensions: { [TASKS_EXTENSION]: {} } },
          `${method} needs the ${TASKS_EXTENSION} extension in the request's client capabilities`,
        );
      }
      // Every task method starts here: a task that is not the caller's is an unknown one.
      // tasks/get shows the result or the questions and tasks/update checks answers against the
      // questions: tasks/cancel reads a summary.
      const task = await this.tasks.get(params["taskId"], caller, method === "tasks/cancel");
      switch (method) {
        case "tasks/get":
          return this.tasks.modernView(task, true);
        case "tasks/update":
          // The SDK lifts `inputResponses` out of every request's params (they are MRTR's field).
          await this.tasks.update(task, params["inputResponses"] ?? call.sdk.mcpReq.inputResponses);
          return {};
        case "tasks/cancel":
          await this.tasks.cancel(task.id);
          return {};
      }
      throw rpcError(ErrorCodes.MethodNotFound, "Method not found");
    }
    if (method === "tasks/list") {
      // Paged in the store (a page never reads results): the server's pageSize, else TASK_PAGE.
      const page = await this.tasks.list(call.owner, params["cursor"], Math.min(this.pageSize ?? TASK_PAGE, MAX_TASK_PAGE));
      return { tasks: page.tasks.map((t) => this.tasks.legacyView(t)), ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
    }
    // tasks/get and tasks/cancel show the status only; tasks/result reads the outcome once the task has ended.
    const task = await this.tasks.get(params["taskId"], caller, true);
    switch (method) {
      case "tasks/get":
        return this.tasks.legacyView(task);
      case "tasks/cancel": {
        // Ended meanwhile (here or on another replica): the same answer as ended before.
        const cancelled = isTerminal(task.status) ? undefined : await this.tasks.cancel(task.id);
        if (!cancelled)
          throw rpcError(ErrorCodes.InvalidParams, `Cannot cancel task: already in terminal status '${(await this.tasks.get(task.id, caller, true)).status}'`);
        return this.tasks.legacyView(cancelled);
      }
      case "tasks/result": {
        // Waits for the end, then answers what the call itself would have answered.
        const ended = await this.tasks.ended(task.id, caller, call.sdk.mcpReq.signal);
        const outcome = ended.outcome;
        const related = { [RELATED_TASK]: { taskId: task.id } };
        if (ended.status === "cancelled" || outcome === undefined) throw rpcError(ErrorCodes.InternalError, `Task ${task.id} was cancelled`, related);
        if ("error" in outcome) throw rpcError(outcome.error.code, outcome.error.message, outcome.error.data);
        return { ...outcome.result, _meta: { ...(outcome.result["_meta"] as JsonObject | undefined), ...related } };
      }
    }
    throw rpcError(ErrorCodes.MethodNotFound, "Method not found");
  }
}
