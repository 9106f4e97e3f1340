/**
 * Type tests of the generated client's tasks and errors (compiled by test/typecheck.test.ts, never
 * run): each `@ts-expect-error` must meet an error, or the compile fails.
 */
import type { CallToolResult, McpConformanceTestServerClient } from "../../generated/mcp-conformance-test-server/index.js";
import type { ClientMethods } from "../../packages/runtime/src/client/client.js";
import {
  ToolCallError,
  ToolError,
  type NotesServerClient,
  type SearchNotesOutput,
  type ToolTask,
  type ToolTaskState,
} from "../../generated/notes-server/index.js";

export async function tasks(notes: NotesServerClient, conformance: McpConformanceTestServerClient): Promise<void> {
  // A task's result is the tool's output: the checked structuredContent of a tool with outputSchema...
  const task: ToolTask<SearchNotesOutput> = await notes.tasks.start("search_notes", { query: "milk" });
  const id: string | undefined = task.taskId;
  const state: ToolTaskState = await task.get();
  const output = await task.result({ onStatus: (s) => void s.status });
  const total: number = output.total;
  void [id, state, total];
  // @ts-expect-error: SearchNotesOutput has no field `count`
  void output.count;
  const ran: SearchNotesOutput = await notes.tasks.run("search_notes", { limit: 5 });
  void ran;

  // ...and the CallToolResult of a tool without one.
  const result: CallToolResult = await conformance.tasks.run("slow_compute", { seconds: 1 });
  const resumed: ToolTask<CallToolResult> = conformance.tasks.resume("failing_job", "id");
  void [result, resumed];

  // @ts-expect-error: create_note cannot run as a task
  await notes.tasks.start("create_note", { title: "t", body: "b" });
  // @ts-expect-error: `limit` is an integer
  await notes.tasks.start("search_notes", { limit: "5" });
  // @ts-expect-error: no tasks on a client whose manifest has no task-capable tool
  void ({} as import("../../examples/gift-server/generated/gift-server/index.js").GiftServerClient).tasks;

  // The plain method of a task-capable tool takes the wait's options too.
  await conformance.failingJob({}, { onStatus: (s) => void s.taskId, signal: AbortSignal.timeout(1000) });
}

export function errors(error: unknown): void {
  // A client's ToolCallError always holds the server's isError result.
  if (error instanceof ToolCallError) {
    const answer: CallToolResult = error.result;
    const tool: string = error.tool;
    void [answer, tool];
  }
  // The server-side ToolError is thrown with a message only: it has no result.
  // @ts-expect-error: ToolError has no `result`
  void new ToolError("no").result;
}

/** The generated client's method table is checked against its interface (`satisfies ClientMethods<...>`). */
export function methodTables(): void {
  const complete = {
    createNote: { tool: "create_note" },
    searchNotes: { tool: "search_notes" },
    folderTree: { tool: "folder_tree" },
    deleteNote: { tool: "delete-note" },
    exportNotes: { tool: "export.notes" },
    readReadme: { resource: "notes://readme" },
    readIndex: { resource: "notes://index" },
    readNote: { template: "notes://notes/{id}" },
  } satisfies ClientMethods<NotesServerClient>;
  const { readNote: _, ...missingOne } = complete;
  // @ts-expect-error: readNote, a method of NotesServerClient, has no entry
  void (missingOne satisfies ClientMethods<NotesServerClient>);
  // @ts-expect-error: notAMethod is no method of NotesServerClient
  void ({ ...complete, notAMethod: { tool: "create_note" } } satisfies ClientMethods<NotesServerClient>);
  // @ts-expect-error: an entry names what it calls: a tool, a resource or a template
  void ({ ...complete, readNote: { prompt: "notes://notes/{id}" } } satisfies ClientMethods<NotesServerClient>);
}
