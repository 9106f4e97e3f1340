/**
 * Type tests of `lists` (compiled by test/typecheck.test.ts, never run): the factory's, the
 * serving handles' and a server's `ServerLists` take the manifest's names only; each
 * `@ts-expect-error` must meet an error, or the compile fails.
 */
import { createServerFactory, type Handlers, type ServerLists, type ToolHandler } from "../../generated/notes-server/server.js";

/** Handlers' ctx.lists is typed by the manifest too. */
export const deleteNote: ToolHandler<"delete-note"> = (_args, ctx) => {
  ctx.lists.disable("tools", "export.notes");
  // @ts-expect-error: notes-server has no tool `export`
  ctx.lists.disable("tools", "export");
  return "deleted";
};
import { serveHttp, type HttpHandle } from "../../generated/notes-server/serve.js";
import { createClient, type SdkClient } from "../../generated/notes-server/client.js";
import type { ToolName } from "../../generated/notes-server/types.js";

export async function client(sdk: SdkClient): Promise<void> {
  const notes = createClient(sdk);
  const { tools } = await notes.listTools();
  const name: ToolName = tools[0]!.name;
  // @ts-expect-error: a listed tool's name is one of the manifest's
  const other: "create_notes" = tools[0]!.name;
  const subscription = await notes.onListChanged("resources", () => {});
  // @ts-expect-error: templates are announced as resources
  await notes.onListChanged("resourceTemplates", () => {});
  await subscription.close();
  void [name, other];
}

export async function lists(handlers: Handlers): Promise<void> {
  const factory = createServerFactory(handlers);
  factory.lists.disable("tools", "create_note");
  factory.lists.enable("tools", ["create_note", "export.notes"]);
  factory.lists.disable("prompts", "daily_review");
  factory.lists.disable("resourceTemplates", "note");
  // Resources are switched by URI.
  factory.lists.disable("resources", "notes://index");
  // @ts-expect-error: notes-server has no tool `create_notes`
  factory.lists.disable("tools", "create_notes");
  // @ts-expect-error: a resource is named by its URI, not its name
  factory.lists.enable("resources", "index");
  // @ts-expect-error: a prompt's name is not a tool's
  factory.lists.enable("tools", "daily_review");
  // @ts-expect-error: notes-server declares no tags
  factory.lists.enableTag("admin");
  // @ts-expect-error: no such kind
  factory.lists.enable("widgets", "x");
  const on: boolean = factory.lists.isEnabled("tools", "search_notes");
  factory.lists.set((entry) => entry.kind === "tools" && entry.name.startsWith("export"), false);

  const handle = await serveHttp(handlers, { port: 0 });
  const typed: ServerLists = handle.lists;
  typed.disable("tools", "folder_tree");
  // @ts-expect-error: typed by the manifest on the handle too
  handle.lists.disable("tools", "folder");
  // Any server's handle is an HttpHandle.
  const any: HttpHandle = handle;
  void [on, any];
}
