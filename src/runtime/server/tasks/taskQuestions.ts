/**
 * The questions of a 2026-07-28 task (tasks.ts runs them): a handler's `ctx.elicit` and the like
 * wait in the task's record (tasks/get shows them, `input_required`) until tasks/update answers
 * them, here or on another replica. Keys are never reused over a task's life, and only answers to
 * questions the record shows waiting, that fit their question, are taken (the extension says to
 * ignore the others), so only those ever travel to another replica.
 */
import type { JsonObject } from "../../shared/definition.js";
import { ErrorCodes, rpcError } from "../../shared/errors.js";
import { responseProblem } from "../engine/context.js";
import type { FormValidators } from "../engine/forms.js";
import type { LiveTask } from "./tasks.js";
import { isTerminal, type TaskChange, type TaskRecord } from "./taskStore.js";

/** A key for a new question: the one wanted, or the first `wanted-N` not used before in this task. */
export function freshKey(live: LiveTask, wanted: string): string {
  let key = wanted;
  for (let n = 2; live.usedKeys.has(key); n++) key = `${wanted}-${n}`;
  live.usedKeys.add(key);
  return key;
}

/** The record change that shows a task's waiting questions (none: it works again). */
export function questionsChange(live: LiveTask): TaskChange {
  if (live.questions.size === 0) return { status: "working" };
  return { status: "input_required", inputRequests: Object.fromEntries([...live.questions].map(([key, q]) => [key, q.request])) };
}

/**
 * What a tasks/update may deliver to a task the caller got: the answers to questions its record
 * shows waiting that fit them. -32602 for responses that are not an object, and for an ended task.
 */
export function waitingAnswers(task: TaskRecord, responses: unknown, forms: FormValidators): JsonObject {
  if (typeof responses !== "object" || responses === null || Array.isArray(responses)) {
    throw rpcError(ErrorCodes.InvalidParams, "Invalid params for tasks/update: expected 'taskId' (string) and 'inputResponses' (object)");
  }
  if (isTerminal(task.status)) throw rpcError(ErrorCodes.InvalidParams, `Cannot update task: already in terminal status '${task.status}'`);
  const waiting = task.status === "input_required" ? (task.inputRequests ?? {}) : {};
  const answers: JsonObject = {};
  for (const [key, response] of Object.entries(responses)) {
    const question = Object.hasOwn(waiting, key) ? waiting[key] : undefined;
    if (question && responseProblem(question, response, forms) === undefined) answers[key] = response as JsonObject[string];
  }
  return answers;
}

/** Answers the questions of a task running here that `responses` names validly; whether any was. */
export function answerQuestions(live: LiveTask, responses: JsonObject, forms: FormValidators): boolean {
  let answered = false;
  for (const [key, response] of Object.entries(responses)) {
    const question = live.questions.get(key);
    if (!question || responseProblem(question.request, response, forms) !== undefined) continue;
    live.questions.delete(key);
    question.answer(response);
    answered = true;
  }
  return answered;
}
