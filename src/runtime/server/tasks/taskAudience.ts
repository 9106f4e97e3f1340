/**
 * Who hears of a task's changes in this process: tasks/result requests waiting for its end,
 * `subscriptions/listen` streams (watchers of every change), and the 2025-era connection that
 * created it (`notifications/tasks/status`). Changes made here and on other replicas alike.
 */
import type { JsonObject } from "../../shared/definition.js";
import { isTerminal, type TaskRecord } from "./taskStore.js";

/** Sends a 2025-era task's `notifications/tasks/status` to the connection that created it. */
export type StatusSink = (params: JsonObject) => Promise<void>;

export class TaskAudience {
  /** The 2025-era connections that created tasks, by owner id. */
  private readonly sinks = new Map<string, StatusSink>();
  /** tasks/result requests waiting for a task's end. */
  private readonly waiters = new Map<string, Set<() => void>>();
  /** Listeners to every change of every task (subscriptions/listen streams). */
  private readonly watchers = new Set<(task: TaskRecord) => void>();

  /** Where the status changes of `owner`'s tasks go. */
  addSink(owner: string, sink: StatusSink): void {
    this.sinks.set(owner, sink);
  }

  /** The connection of `owner` is gone: its tasks' notifications have nowhere to go. */
  forgetOwner(owner: string): void {
    this.sinks.delete(owner);
  }

  /** Calls `listener` with each task record written; answers how to stop. */
  watch(listener: (task: TaskRecord) => void): () => void {
    this.watchers.add(listener);
    return () => void this.watchers.delete(listener);
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

  /** A record changed (here or elsewhere): waiters wake at its end, watchers hear it, a 2025-era owner here is notified with `legacyView`. */
  announce(task: TaskRecord, legacyView: (task: TaskRecord) => JsonObject): void {
    if (isTerminal(task.status)) {
      const waiting = this.waiters.get(task.id);
      if (waiting) for (const wake of [...waiting]) wake();
    }
    for (const watcher of this.watchers) watcher(task);
    const sink = task.era === "legacy" && task.owner !== undefined ? this.sinks.get(task.owner) : undefined;
    if (sink) void sink(legacyView(task)).catch(() => {});
  }
}
