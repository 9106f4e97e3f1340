/**
 * Tasks: tool calls that outlive their request, polled by the client. Two wire forms share one
 * store (taskStore.ts: this process's memory by default, or Redis for several replicas):
 *
 * - MCP 2025-11-25 (2025-era clients): `tools/call` with `params.task` answers `{task}` at once;
 *   `tasks/get`, `tasks/result` (waits for the end), `tasks/list`, `tasks/cancel`; an `isError`
 *   result makes the task `failed`; every status change is sent to the connection that created
 *   it as `notifications/tasks/status`.
 * - The `io.modelcontextprotocol/tasks` extension of 2026-07-28: the server answers a flat
 *   CreateTaskResult (`resultType: "task"`) when the handler calls `ctx.startTask()`; `tasks/get`
 *   inlines the result, the error or the pending questions; `tasks/update` answers questions;
 *   `tasks/cancel` is an acknowledgement; an `isError` result is `completed`.
 *
 * What every replica sees is the record in the store; what only this process has (the handler's
 * AbortController, its questions' resolvers) is its `live` state. A tasks/cancel or tasks/update
 * that reaches another replica travels to this one as a store event. A task whose process stops
 * (its lease lapses) is failed by the first reader.
 */
import type { JsonObject } from "../../shared/definition.js";
import { ErrorCodes, rpcError } from "../../shared/errors.js";
import { checkCapability, formReady, questionRefused, rejected, responseProblem, type InputChannel } from "../engine/context.js";
import type { ServerTasks } from "../engine/engineCore.js";
import { FormValidators } from "../engine/forms.js";
import { positiveOption } from "../engine/options.js";
import { decodeCursor, encodeCursor } from "../engine/paging.js";
import { belongsTo, newTaskId, type TaskCaller } from "../engine/owner.js";
import type {
  InputRequest,
  RunningTask,
  StatusSink,
  TaskChange,
  TaskEvent,
  TaskEventLink,
  TaskOptions,
  TaskOutcome,
  TaskRecord,
  TaskStore,
  TaskStoreLimits,
} from "../engine/parts.js";
import type { ProtocolEra } from "../engine/sdk.js";
import { isTerminal, memoryTaskStore, storeLimits } from "./taskStore.js";

/** The error of a task whose process stopped while it ran (its lease lapsed). */
export const STOPPED = "the server process running this task stopped";

/** What a task running in this process holds: its handler's signal, its questions. Dropped when the task ends. */
export interface LiveTask extends RunningTask {
  readonly id: string;
  readonly era: ProtocolEra;
  /** The record as created (the store has the current one). */
  readonly created: TaskRecord;
  /** Aborted by tasks/cancel or expiry; the handler's ctx.signal. */
  readonly controller: AbortController;
  /** Questions waiting for the client, by key (2026-07-28 tasks). */
  readonly questions: Map<string, { request: InputRequest; answer: (response: unknown) => void; fail: (error: Error) => void }>;
  readonly usedKeys: Set<string>;
  readonly capabilities: JsonObject | undefined;
}

/**
 * What follows every task's changes in this process (the 2026-07-28 listen streams). A change
 * made here comes with its record; one heard from another replica without it (the follower reads
 * it when it needs it).
 */
export interface TaskWatcher {
  changed(change: { readonly id: string; readonly era: ProtocolEra; readonly record?: TaskRecord }): void;
  /** Changes may have been lost (the store's connection came back): read everything followed again. */
  resync(): void;
}

/** A factory's tasks; the tasks part (index.ts) adds their methods and listen streams. */
export class Tasks implements Omit<ServerTasks, "methods" | "listens"> {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly maxRunning: number;
  private store: TaskStore;
  private events: TaskEventLink;
  /** Whether this engine made its store (and so closes it). */
  private ownsStore: boolean;
  private fixed: boolean;
  private readonly live = new Map<string, LiveTask>();
  /** Who hears of changes here: tasks/result waiters, listen streams, 2025-era owners. */
  private readonly audience = new TaskAudience();
  /** Runs while tasks run here: renews their leases, cancels those past their ttl. */
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The bounds of the store this engine makes: the in-memory one, or one from the environment. */
  readonly limits: Required<TaskStoreLimits>;

  constructor(
    options: TaskOptions,
    private readonly report: (error: unknown) => void,
    /** Checks answers to forms (elicitation) against their schema. */
    private readonly forms: FormValidators = new FormValidators(),
  ) {
    this.ttlMs = positiveOption(options.taskTtlMs, 3600_000, "taskTtlMs");
    this.pollIntervalMs = positiveOption(options.taskPollIntervalMs, 500, "taskPollIntervalMs");
    this.limits = storeLimits(options);
    this.maxRunning = Math.min(positiveOption(options.maxRunningTasks, 1_000, "maxRunningTasks"), this.limits.maxTasks);
    this.ownsStore = options.taskStore === undefined;
    this.fixed = !this.ownsStore;
    this.store = options.taskStore ?? memoryTaskStore(this.limits);
    this.events = this.store.link((event) => this.onEvent(event));
  }

  /** The store, when it is chosen (by the options, or already from the environment): the environment does not choose it then. */
  get chosenStore(): TaskStore | undefined {
    return this.fixed ? this.store : undefined;
  }

  /** Swaps in a store (from the environment) before serving; this engine then closes it. */
  useStore(store: TaskStore): void {
    if (this.live.size > 0) throw new Error("the task store cannot change while tasks run");
    this.events.close();
    void this.store.close();
    this.store = store;
    this.ownsStore = true;
    this.fixed = true;
    this.events = store.link((event) => this.onEvent(event));
  }

  /** Connects the store: serving starts after it (a store that cannot connect stops the start). */
  open(): Promise<void> {
    return this.store.open();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const live of [...this.live.values()]) this.end(live, "the server is closing", new Error("The server is closing"));
    this.events.close();
    if (this.ownsStore) await this.store.close();
  }

  /** Tasks running in this process (for tests and monitoring). */
  get running(): number {
    return this.live.size;
  }

  /** A new running task, or -32005 when maxRunningTasks run here. `owner`: engine/owner.ts; `sink`: where its status changes go (2025 era). */
  async create(
    era: ProtocolEra,
    owner: string | undefined,
    capabilities: JsonObject | undefined,
    requestedTtl?: unknown,
    sink?: StatusSink,
  ): Promise<LiveTask> {
    const ttl = taskTtl(requestedTtl, this.ttlMs);
    if (this.live.size >= this.maxRunning) {
      throw rpcError(ErrorCodes.LimitExceeded, `Too many tasks: ${this.maxRunning} are running (the server's maxRunningTasks); retry when one has ended`, {
        limit: this.maxRunning,
      });
    }
    const now = new Date().toISOString();
    const record: TaskRecord = {
      id: newTaskId(),
      era,
      ...(owner === undefined ? {} : { owner }),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: ttl,
      expiresAt: Date.now() + ttl,
    };
    const live: LiveTask = { id: record.id, era, created: record, controller: new AbortController(), questions: new Map(), usedKeys: new Set(), capabilities };
    // Counted at once: concurrent creations see it.
    this.live.set(live.id, live);
    if (sink && owner !== undefined) this.audience.addSink(owner, sink);
    try {
      await this.store.create(record);
    } catch (error) {
      this.live.delete(live.id);
      throw error;
    }
    if (this.timer === undefined) {
      const leaseMs = this.store.leaseMs;
      this.timer = setInterval(() => this.tick(), leaseMs === undefined ? SWEEP_MS : Math.min(SWEEP_MS, Math.max(50, Math.floor(leaseMs / 3))));
      // The timer alone never keeps the process alive.
      (this.timer as { unref?: () => void }).unref?.();
    }
    return live;
  }

  /** Tells `watcher` of each task change, here or on another replica; answers how to stop. */
  watch(watcher: TaskWatcher): () => void {
    return this.audience.watch(watcher);
  }

  /** The connection of `owner` is gone: its tasks' notifications have nowhere to go. */
  forgetOwner(owner: string): void {
    this.audience.forgetOwner(owner);
  }

  /**
   * The caller's task, or -32602 as MCP requires for an unknown or expired id; a task of another
   * owner or era gets the very same answer (nothing tells it from an unknown one). A task whose
   * process stopped is failed first. `summary`: its outcome and questions may be left out (a store
   * need not read them).
   */
  async get(taskId: unknown, caller: TaskCaller, summary = false): Promise<TaskRecord> {
    if (typeof taskId !== "string") throw rpcError(ErrorCodes.InvalidParams, "Invalid params: expected 'taskId' (string)");
    const stored = await this.store.get(taskId, summary);
    if (!stored || !belongsTo(stored.task, caller)) throw rpcError(ErrorCodes.InvalidParams, `Failed to retrieve task: Task not found (${taskId})`);
    return stored.orphaned && !this.live.has(taskId) ? this.failOrphan(stored.task) : stored.task;
  }

  /** A page of an owner's tasks (summaries, at most `limit`), from the tasks/list `cursor`; none for a caller nothing identifies. */
  async list(owner: string | undefined, cursor: unknown, limit: number): Promise<{ tasks: TaskRecord[]; nextCursor?: string }> {
    if (owner === undefined) return { tasks: [] };
    const page = await this.store.list(owner, limit, taskCursor(cursor));
    const tasks = await Promise.all(page.tasks.map(async (s) => (s.orphaned && !this.live.has(s.task.id) ? this.failOrphan(s.task) : s.task)));
    return { tasks, ...(page.next === undefined ? {} : { nextCursor: nextTaskCursor(page.next) }) };
  }

  /** Waits until the task ends (tasks/result), rechecking the store now and then (a lost event, a stopped process). */
  async ended(taskId: string, caller: TaskCaller, signal: AbortSignal): Promise<TaskRecord> {
    for (;;) {
      // Polled as a summary; read whole once, at the end.
      const task = await this.get(taskId, caller, true);
      if (isTerminal(task.status)) return this.get(taskId, caller);
      if (signal.aborted) throw signal.reason;
      await this.audience.endOrTimeout(taskId, signal, this.recheckMs());
    }
  }

  /** Records how the handler ended (the record as written); nothing changes when the task has already ended (cancelled, expired). */
  async finish(live: LiveTask, outcome: TaskOutcome): Promise<TaskRecord | undefined> {
    const isError = "result" in outcome && outcome.result["isError"] === true;
    // 2025-11-25: an isError result fails the task. The extension: it completed (with isError).
    const status = "error" in outcome || (isError && live.era === "legacy") ? "failed" : "completed";
    try {
      return await this.change(live.id, { status, outcome });
    } finally {
      this.end(live, "the task ended");
    }
  }

  /** Cancels a task wherever it runs: the record says cancelled at once, its handler's signal aborts. Undefined when it had already ended. */
  async cancel(taskId: string, message = "Cancelled by the client"): Promise<TaskRecord | undefined> {
    const written = await this.change(taskId, { status: "cancelled", statusMessage: message });
    if (!written) return undefined;
    this.abort(taskId, message);
    return written;
  }

  /** The 2025-era status change while a handler waits for the client (or stops waiting). */
  waiting(live: LiveTask, on: boolean): void {
    if (!this.live.has(live.id)) return;
    void this.change(live.id, { status: on ? "input_required" : "working" }).catch(this.report);
  }

  /** Where a 2026-07-28 task's handler asks its questions: they wait in tasks/get for tasks/update. */
  channel(live: LiveTask): InputChannel {
    const channel: InputChannel = {
      ask: (request, wanted) => {
        const missing = checkCapability(request, live.capabilities);
        if (missing) return rejected(missing);
        const loading = formReady(request, this.forms);
        if (loading) return loading.then(() => channel.ask(request, wanted));
        const refused = questionRefused(request, this.forms);
        if (refused) return rejected(refused);
        if (!this.live.has(live.id)) return rejected(new Error("the task has ended"));
        const key = freshKey(live, wanted);
        return new Promise((resolve, reject) => {
          live.questions.set(key, { request, answer: resolve, fail: reject });
          void this.showQuestions(live).catch(this.report);
        });
      },
    };
    return channel;
  }

  /**
   * tasks/update of a task the caller got (get): an ended task refuses it (-32602); the answers to
   * its waiting questions go to the handler, here or on the replica running it; others are dropped.
   */
  async update(task: TaskRecord, responses: unknown): Promise<void> {
    // Its questions may have been asked on another replica: their forms made ready here.
    for (const request of Object.values(task.inputRequests ?? {})) await formReady(request, this.forms);
    const answers = waitingAnswers(task, responses, this.forms);
    if (Object.keys(answers).length === 0) return;
    const live = this.live.get(task.id);
    if (live) await this.answer(live, answers);
    else await this.events.publish({ kind: "update", taskId: task.id, responses: answers });
  }

  /** A Task as 2025-11-25 shows it (tasks/get, tasks/list, tasks/cancel, CreateTaskResult.task, notifications/tasks/status). */
  legacyView(task: TaskRecord): JsonObject {
    return legacyTaskView(task, this.pollIntervalMs);
  }

  /** A Task as the 2026-07-28 extension shows it; `detailed` adds result, error or questions (tasks/get, notifications/tasks). */
  modernView(task: TaskRecord, detailed: boolean): JsonObject {
    return modernTaskView(task, this.pollIntervalMs, detailed);
  }

  /** Writes a change; when it applied, this process and the others hear of it. */
  private async change(taskId: string, change: TaskChange, ifOrphaned = false): Promise<TaskRecord | undefined> {
    const written = await this.store.transition(taskId, change, new Date().toISOString(), ifOrphaned);
    if (written) {
      this.announce(written);
      const { id, era, owner, status, statusMessage } = written;
      // A running task's record has no outcome: it travels, so every state reaches the other
      // replicas' streams. An ended one's outcome can be megabytes: read where it is needed.
      const event: TaskEvent = {
        kind: "status",
        taskId: id,
        era,
        status,
        ...(owner === undefined ? {} : { owner }),
        ...(statusMessage === undefined ? {} : { statusMessage }),
        ...(isTerminal(status) ? {} : { record: written }),
      };
      void this.events.publish(event).catch(this.report);
    }
    return written;
  }

  /** The task's process stopped: failed with -32603 (by one reader only; the others read what it wrote). */
  private async failOrphan(task: TaskRecord): Promise<TaskRecord> {
    const written = await this.change(
      task.id,
      { status: "failed", statusMessage: STOPPED, outcome: { error: { code: ErrorCodes.InternalError, message: STOPPED } } },
      true,
    );
    return written ?? (await this.store.get(task.id))?.task ?? task;
  }

  /** The current questions of a 2026-07-28 task, written to its record (tasks/get on any replica shows them). */
  private async showQuestions(live: LiveTask): Promise<void> {
    if (this.live.has(live.id)) await this.change(live.id, questionsChange(live));
  }

  private async answer(live: LiveTask, responses: JsonObject): Promise<void> {
    if (answerQuestions(live, responses, this.forms)) await this.showQuestions(live);
  }

  private onEvent(event: TaskEvent): void {
    if (event.kind === "resync") {
      this.audience.resync();
      return void this.stopEndedElsewhere().catch(this.report);
    }
    if (event.kind === "status") {
      // Ended elsewhere (a reader took this process for stopped): the handler here stops too.
      const here = isTerminal(event.status) ? this.live.get(event.taskId) : undefined;
      if (here)
        this.end(
          here,
          "the task ended",
          new Error(event.status === "cancelled" ? `The task was cancelled: ${event.statusMessage ?? ""}` : `The task ended elsewhere: ${event.status}`),
        );
      // Read only when a 2025-era owner here is told of an ended task (a summary: the notification has no result).
      const read = async () => event.record ?? (await this.store.get(event.taskId, true))?.task;
      return this.audience.heard(event, read, (t) => this.legacyView(t), this.report);
    }
    const live = this.live.get(event.taskId);
    if (!live) return;
    if (event.kind === "cancel") this.abort(event.taskId, event.message);
    else void this.answer(live, event.responses).catch(this.report);
  }

  /** After an outage: the tasks running here that were ended elsewhere meanwhile (cancelled, failed as orphans) stop here too. */
  private async stopEndedElsewhere(): Promise<void> {
    for (const live of [...this.live.values()]) {
      const stored = await this.store.get(live.id, true);
      const status = stored?.task.status;
      if (status === undefined || isTerminal(status))
        this.end(
          live,
          "the task ended",
          new Error(status === "cancelled" ? `The task was cancelled: ${stored?.task.statusMessage ?? ""}` : `The task ended elsewhere: ${status ?? "gone"}`),
        );
    }
  }

  /** A task ended by another call: its handler here stops, or the replica running it hears of it. */
  private abort(taskId: string, message: string): void {
    const live = this.live.get(taskId);
    if (live) this.end(live, "The task was cancelled", new Error(`The task was cancelled: ${message}`));
    else void this.events.publish({ kind: "cancel", taskId, message }).catch(this.report);
  }

  /** A record changed (here or elsewhere): everyone here who follows it hears of it. */
  private announce(task: TaskRecord): void {
    this.audience.announce(task, (t) => this.legacyView(t));
  }

  /** The task's live state goes: its waiting questions fail, its signal aborts (when it did not end by itself). */
  private end(live: LiveTask, why: string, abort?: Error): void {
    if (this.live.get(live.id) !== live) return;
    this.live.delete(live.id);
    if (live.questions.size > 0) {
      const error = new Error(why);
      for (const question of live.questions.values()) question.fail(error);
      live.questions.clear();
    }
    if (abort) live.controller.abort(abort);
    if (this.live.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Renews the leases of the tasks running here; cancels those past their ttl. */
  private tick(): void {
    const now = Date.now();
    const ids: string[] = [];
    for (const live of this.live.values()) {
      if (live.created.expiresAt <= now) void this.expire(live).catch(this.report);
      else ids.push(live.id);
    }
    if (this.store.leaseMs !== undefined && ids.length > 0) void this.store.renewLeases(ids).catch(this.report);
  }

  private async expire(live: LiveTask): Promise<void> {
    const message = "Expired: its ttl has passed";
    await this.change(live.id, { status: "cancelled", statusMessage: message });
    this.end(live, "The task was cancelled", new Error(`The task was cancelled: ${message}`));
  }

  /** How long tasks/result waits before reading the store again (a lost event, a stopped process). */
  private recheckMs(): number {
    const leaseMs = this.store.leaseMs;
    return leaseMs === undefined ? 5000 : Math.max(100, Math.min(2000, Math.floor(leaseMs / 2)));
  }
}

/** How often running tasks are checked for their ttl. */
const SWEEP_MS = 1000;

/**
 * Who hears of a task's changes in this process: tasks/result requests waiting for its end,
 * `subscriptions/listen` streams (watchers of every change), and the 2025-era connection that
 * created it (`notifications/tasks/status`). Changes made here and on other replicas alike.
 */
class TaskAudience {
  /** The 2025-era connections that created tasks, by owner id. */
  private readonly sinks = new Map<string, StatusSink>();
  /** tasks/result requests waiting for a task's end. */
  private readonly waiters = new Map<string, Set<() => void>>();
  /** Followers of every change of every task (subscriptions/listen streams). */
  private readonly watchers = new Set<TaskWatcher>();

  /** Where the status changes of `owner`'s tasks go. */
  addSink(owner: string, sink: StatusSink): void {
    this.sinks.set(owner, sink);
  }

  /** The connection of `owner` is gone: its tasks' notifications have nowhere to go. */
  forgetOwner(owner: string): void {
    this.sinks.delete(owner);
  }

  /** Tells `watcher` of each task change; answers how to stop. */
  watch(watcher: TaskWatcher): () => void {
    this.watchers.add(watcher);
    return () => void this.watchers.delete(watcher);
  }

  /** Resolves when the task ends or after `ms` (to read the store again), rejects when `signal` aborts. */
  endOrTimeout(taskId: string, signal: AbortSignal, ms: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let waiting = this.waiters.get(taskId);
      if (!waiting) this.waiters.set(taskId, (waiting = new Set()));
      const set = waiting;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        set.delete(done);
        if (set.size === 0 && this.waiters.get(taskId) === set) this.waiters.delete(taskId);
      };
      const wake = () => (done(), resolve());
      const onAbort = () => (done(), reject(signal.reason));
      const timer = setTimeout(wake, ms);
      set.add(wake);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** A record changed here: waiters wake at its end, watchers get it, a 2025-era owner here is notified with `legacyView`. */
  announce(task: TaskRecord, legacyView: (task: TaskRecord) => JsonObject): void {
    if (isTerminal(task.status)) this.wake(task.id);
    for (const watcher of this.watchers) watcher.changed({ id: task.id, era: task.era, record: task });
    const sink = task.era === "legacy" && task.owner !== undefined ? this.sinks.get(task.owner) : undefined;
    if (sink) void sink(legacyView(task)).catch(() => {});
  }

  /**
   * A record changed on another replica (a running task's comes with the event, an ended one's
   * does not): waiters wake at its end, watchers get it or read it when their clients have room,
   * and a 2025-era owner here is notified from the record `read` (a summary). A record that has
   * moved on meanwhile is left to the event of that move.
   */
  heard(
    event: Extract<TaskEvent, { kind: "status" }>,
    read: () => Promise<TaskRecord | undefined>,
    legacyView: (task: TaskRecord) => JsonObject,
    report: (error: unknown) => void,
  ): void {
    if (isTerminal(event.status)) this.wake(event.taskId);
    const record = event.record;
    for (const watcher of this.watchers) watcher.changed({ id: event.taskId, era: event.era, ...(record === undefined ? {} : { record }) });
    const sink = event.era === "legacy" && event.owner !== undefined ? this.sinks.get(event.owner) : undefined;
    if (!sink) return;
    void read().then((task) => {
      if (task && task.status === event.status) void sink(legacyView(task)).catch(() => {});
    }, report);
  }

  /** Events may have been lost (the store's connection came back): every waiter reads again, every watcher too. */
  resync(): void {
    for (const taskId of [...this.waiters.keys()]) this.wake(taskId);
    for (const watcher of this.watchers) watcher.resync();
  }

  private wake(taskId: string): void {
    const waiting = this.waiters.get(taskId);
    if (waiting) for (const wake of [...waiting]) wake();
  }
}

// The questions of a 2026-07-28 task: a handler's `ctx.elicit` and the like wait in the task's
// record (tasks/get shows them, `input_required`) until tasks/update answers them, here or on
// another replica. Keys are never reused over a task's life, and only answers to questions the
// record shows waiting, that fit their question, are taken (the extension says to ignore the
// others), so only those ever travel to another replica.

/** A key for a new question: the one wanted, or the first `wanted-N` not used before in this task. */
function freshKey(live: LiveTask, wanted: string): string {
  let key = wanted;
  for (let n = 2; live.usedKeys.has(key); n++) key = `${wanted}-${n}`;
  live.usedKeys.add(key);
  return key;
}

/** The record change that shows a task's waiting questions (none: it works again). */
function questionsChange(live: LiveTask): TaskChange {
  if (live.questions.size === 0) return { status: "working" };
  return { status: "input_required", inputRequests: Object.fromEntries([...live.questions].map(([key, q]) => [key, q.request])) };
}

/**
 * What a tasks/update may deliver to a task the caller got: the answers to questions its record
 * shows waiting that fit them. -32602 for responses that are not an object, and for an ended task.
 */
function waitingAnswers(task: TaskRecord, responses: unknown, forms: FormValidators): JsonObject {
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
function answerQuestions(live: LiveTask, responses: JsonObject, forms: FormValidators): boolean {
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

// How a task record reads on the wire: the 2025-11-25 Task (tasks/get, tasks/list, tasks/cancel,
// CreateTaskResult.task, notifications/tasks/status) and the 2026-07-28 extension's (tasks/get
// with its result, error or questions inlined, CreateTaskResult, notifications/tasks).

/** A Task as 2025-11-25 shows it. */
function legacyTaskView(task: TaskRecord, pollIntervalMs: number): JsonObject {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: task.ttlMs,
    pollInterval: pollIntervalMs,
  };
}

/** A Task as the 2026-07-28 extension shows it; `detailed` adds result, error or questions (tasks/get). */
function modernTaskView(task: TaskRecord, pollIntervalMs: number, detailed: boolean): JsonObject {
  const view: JsonObject = {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs,
  };
  if (!detailed) return view;
  if (task.status === "input_required" && task.inputRequests) view["inputRequests"] = { ...task.inputRequests };
  if (task.status === "completed" && task.outcome && "result" in task.outcome) view["result"] = task.outcome.result;
  if (task.status === "failed" && task.outcome)
    view["error"] = "error" in task.outcome ? task.outcome.error : { code: ErrorCodes.InternalError, message: "The tool answered isError" };
  return view;
}

// What a client sends about tasks, checked before anything reaches the store: the ttl a
// 2025-era task-augmented call asks for, and the cursor of tasks/list.

/** The longest ttl a client may ask for (the server's own taskTtlMs may be longer). */
const MAX_REQUESTED_TTL_MS = 24 * 3600_000;

/** Tasks in one tasks/list answer when the server has no pageSize, and at most with one. */
export const TASK_PAGE = 100;
export const MAX_TASK_PAGE = 1000;

/**
 * The ttl a task gets: MCP lets the receiver override the one requested, so a number is rounded
 * up to whole milliseconds and kept within the server's (no ttl, zero or a negative one: the
 * server's); anything but a number is -32602.
 */
export function taskTtl(requested: unknown, serverTtlMs: number): number {
  if (requested === undefined || requested === null) return serverTtlMs;
  if (typeof requested !== "number") throw rpcError(ErrorCodes.InvalidParams, "Invalid params: task.ttl must be a number of milliseconds");
  if (!(requested > 0)) return serverTtlMs;
  return Math.min(Math.ceil(requested), serverTtlMs, MAX_REQUESTED_TTL_MS);
}

/** Where a tasks/list page starts: undefined for the first page; -32602 for a cursor this server did not issue. */
export function taskCursor(cursor: unknown): number | undefined {
  if (cursor === undefined || cursor === null) return undefined;
  const after = typeof cursor === "string" ? decodeCursor(cursor, "tasks") : undefined;
  if (after === undefined || !Number.isSafeInteger(after))
    throw rpcError(ErrorCodes.InvalidParams, "Invalid cursor: pass the nextCursor of the previous page, or none for the first page");
  return after;
}

/** The cursor of the page after the key `next`. */
export function nextTaskCursor(next: number): string {
  return encodeCursor(next, "tasks");
}
