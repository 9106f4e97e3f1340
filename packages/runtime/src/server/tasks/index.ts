/**
 * `@mcpgen/runtime/server/tasks`: tool calls that run as tasks. The generated server.ts of a
 * manifest whose tools declare `execution.taskSupport` hands `tasks` to the factory; a server
 * without task tools never loads this part. Also where tasks are kept: `memoryTaskStore` (the
 * default, one process) and the `TaskStore` contract a store shared by replicas implements
 * (`@mcpgen/runtime/server/redis` has one on Redis).
 */
import type { EngineCore, MethodEntry, ServerTasks, TasksPart } from "../engine/engineCore.js";
import type { SdkFetch, TaskListenStreams } from "../engine/parts.js";
import type { ServerEventBus } from "../engine/sdk.js";
import { taskMethods } from "./taskMethods.js";
import { TaskListens } from "./taskListen.js";
import { Tasks } from "./tasks.js";

export { memoryTaskStore, type MemoryTaskStoreOptions } from "./taskStore.js";
export type {
  StoredTask,
  TaskChange,
  TaskEvent,
  TaskEventLink,
  TaskOptions,
  TaskOutcome,
  TaskPage,
  TaskRecord,
  TaskStore,
  TaskStoreLimits,
} from "../engine/parts.js";

/** A factory's tasks with their methods (tasks/*) and the 2026-07-28 listen streams that follow them. */
class ServerTaskSet extends Tasks implements ServerTasks {
  methods(core: EngineCore): MethodEntry[] {
    return taskMethods(this, core.options.pageSize);
  }

  listens(bus: ServerEventBus, sdk: SdkFetch, max: number, queueBytes: number): TaskListenStreams {
    return new TaskListens(this, bus, sdk, max, queueBytes);
  }
}

/** The tasks part: what the generated server.ts of a server with task tools passes to the factory. */
export const tasks: TasksPart = {
  make: (options, report, forms) => new ServerTaskSet(options, report, forms),
};
