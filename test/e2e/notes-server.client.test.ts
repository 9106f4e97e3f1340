/**
 * The generated notes-server and its generated client, through the official SDK Client over
 * InMemoryTransport: typed tool methods, ToolError, output validation, resources, templates,
 * prompts, and fixtures equal to the live list answers.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { createClient, createServerFactory, OutputValidationError, ToolCallError, ToolError, type Handlers } from "../../generated/notes-server/index.js";
import { notesHandlers } from "../servers/notes.js";
import { connectInMemory, type Era } from "../helpers/connect.js";

const read = (name: string) => JSON.parse(readFileSync(new URL(`../../generated/notes-server/fixtures/${name}`, import.meta.url), "utf8"));
/** A result without what the 2026-07-28 era adds to it (resultType, cache hint, the server's identity). */
const plain = (result: Record<string, unknown>) => {
  const { _meta, resultType: _r, ttlMs: _t, cacheScope: _c, ...rest } = result as Record<string, unknown> & { _meta?: Record<string, unknown> };
  const { "io.modelcontextprotocol/serverInfo": _s, ...meta } = _meta ?? {};
  return Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
};

/** The SDK line of the Client and the protocol era each run uses. */
const RUNS: [string, "v2" | "v1", Era][] = [
  ["SDK v2 Client, 2025 era", "v2", "legacy"],
  ["SDK v2 Client, 2026-07-28", "v2", "modern"],
  ["SDK 1.x Client", "v1", "legacy"],
];

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe.each(RUNS)("notes-server through the SDK Client and the generated client (%s)", (_name, line, era) => {
  async function connect(handlers: Handlers = notesHandlers(), options?: Parameters<typeof createClient>[1]) {
    const c = await connectInMemory(createServerFactory(handlers), { era, line });
    close = c.close;
    return { sdk: c.sdk, client: createClient(c.sdk, options) };
  }
  const fixture = (name: string) => read(era === "modern" ? `2026-07-28/${name}` : name);

  it("lists exactly the fixtures through the SDK Client", async () => {
    const { sdk } = await connect();
    // The SDK v2 Client consumes resultType and hands back the rest of what the server sent.
    const listed = (name: string) => {
      const { resultType: _, ...rest } = fixture(name);
      return rest;
    };
    expect(await sdk.listTools()).toEqual(listed("tools-list.json"));
    expect(await sdk.listResources()).toEqual(listed("resources-list.json"));
    expect(await sdk.listResourceTemplates()).toEqual(listed("resource-templates-list.json"));
    expect(await sdk.listPrompts()).toEqual(listed("prompts-list.json"));
  });

  it("resolves a typed tool method to its structured output", async () => {
    const { client } = await connect();
    const note = await client.createNote({ title: "Call mom", body: "Sunday", tags: ["family"] });
    expect(note).toEqual({ id: "n2", title: "Call mom", body: "Sunday", tags: ["family"] });
    const found = await client.searchNotes({ query: "Call" });
    expect(found).toEqual({ notes: [note], total: 1 });
    const tree = await client.folderTree();
    expect(tree.root.children).toEqual([{ name: "archive", children: [] }]);
  });

  it("resolves tools without outputSchema to the CallToolResult, and rejects isError with ToolCallError (a ToolError)", async () => {
    const { client } = await connect();
    expect(plain(await client.deleteNote({ id: "n1" }))).toEqual({ content: [{ type: "text", text: "Deleted n1" }] });
    const error = await client.deleteNote({ id: "n1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolCallError).message).toBe("No note n1");
    expect((error as ToolCallError).tool).toBe("delete-note");
    expect(plain((error as ToolCallError).result)).toEqual({ content: [{ type: "text", text: "No note n1" }], isError: true });
    const exported = await client.exportNotes({ format: "json" });
    expect(exported.content[0]).toMatchObject({ type: "resource", resource: { uri: "notes://export.json", mimeType: "application/json" } });
  });

  it("callTool returns the raw result, isError included", async () => {
    const { client } = await connect();
    expect(plain(await client.callTool("delete-note", { id: "zzz" }))).toEqual({ content: [{ type: "text", text: "No note zzz" }], isError: true });
    const invalid = await client.callTool("create_note", { title: "", body: "x" });
    expect(plain(invalid)).toEqual({
      content: [{ type: "text", text: "Invalid arguments for tool create_note: Property 'title' must NOT have fewer than 1 characters" }],
      isError: true,
    });
    const extra = await client.callTool("create_note", { title: "t", body: "b", colour: "red" } as never);
    expect(extra.content).toEqual([{ type: "text", text: "Invalid arguments for tool create_note: Unknown property 'colour'" }]);
  });

  it("rejects structured output that breaks the outputSchema unless validate: false", async () => {
    // A server that is not ours (same manifest, a handwritten server that lies): simulate it with
    // an SDK-level interception of the result.
    const handlers = notesHandlers();
    const { sdk, client } = await connect(handlers);
    const lying = createClient(wrapCallTool(sdk, (r) => ({ ...r, structuredContent: { notes: "none", total: 0 } })));
    const error = await lying.searchNotes({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputValidationError);
    expect((error as Error).message).toBe("Tool 'search_notes' returned output that does not match its outputSchema: Property 'notes' must be array");
    const trusting = createClient(
      wrapCallTool(sdk, (r) => ({ ...r, structuredContent: { notes: "none", total: 0 } })),
      { validate: false },
    );
    expect(await trusting.searchNotes({})).toEqual({ notes: "none", total: 0 });
    expect(await client.searchNotes({ limit: 1 })).toMatchObject({ total: 1 });
  });

  it("reads static, file-backed, handler and template resources", async () => {
    const { client } = await connect();
    const readme = await client.readReadme();
    if (era === "modern") expect(readme).toMatchObject({ ttlMs: 300000, cacheScope: "public" });
    expect(readme.contents).toEqual([
      { uri: "notes://readme", mimeType: "text/markdown", text: readFileSync(new URL("../../manifests/notes-readme.md", import.meta.url), "utf8") },
    ]);
    expect((await client.readIndex()).contents).toEqual([{ uri: "notes://index", mimeType: "text/plain", text: "Groceries" }]);
    expect((await client.readNote({ id: "n1" })).contents).toEqual([
      { uri: "notes://notes/n1", mimeType: "application/json", text: JSON.stringify({ id: "n1", title: "Groceries", body: "milk, eggs", tags: ["home"] }) },
    ]);
    const missing = await client.readNote({ id: "a/b" }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: -32602, data: { uri: "notes://notes/a%2Fb" } });
  });

  it("gets prompts: messages with placeholders filled, or from a handler; required arguments enforced", async () => {
    const { client } = await connect();
    expect(plain(await client.getPrompt("daily_review", { day: "Monday" }))).toEqual({
      messages: [
        { role: "user", content: { type: "text", text: "Review my notes for Monday. My mood: ." } },
        { role: "assistant", content: { type: "text", text: "Here is what stands out for Monday." } },
      ],
    });
    expect(plain(await client.getPrompt("summarize_note", { id: "n1", style: "bullets" }))).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "Summarize note n1 as bullets." } }],
    });
    const missing = await client.getPrompt("summarize_note", {} as never).catch((e: unknown) => e);
    // SDK 1.x prefixes the server's message with "MCP error -32602: ".
    expect(missing).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^(MCP error -32602: )?Missing required argument 'id' for prompt summarize_note$/),
    });
  });

  it("passes the request's signal to the handler, aborted when the client cancels", async () => {
    let aborted: Promise<string> | undefined;
    const handlers = notesHandlers();
    handlers.tools.search_notes = (_args, ctx) => {
      aborted = new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(`aborted ${String(ctx.requestId)}`)));
      return new Promise(() => {}); // never answers on its own
    };
    const { client } = await connect(handlers);
    const controller = new AbortController();
    const call = client.searchNotes({ query: "x" }, { signal: controller.signal });
    await vi.waitFor(() => expect(aborted).toBeDefined());
    controller.abort("user gave up");
    await expect(call).rejects.toThrow();
    expect(await aborted).toMatch(/^aborted \d+$/);
    // The server is still serving.
    expect((await client.folderTree()).root.name).toBe("root");
  });
});

/** An SDK Client whose callTool results pass through `edit` (a server that breaks its contract). */
function wrapCallTool(sdk: Client, edit: (result: Record<string, unknown>) => Record<string, unknown>): Client {
  return new Proxy(sdk, {
    get(target, key, receiver) {
      if (key === "callTool")
        return async (...args: unknown[]) => edit(await (target.callTool as (...a: unknown[]) => Promise<Record<string, unknown>>)(...args));
      return Reflect.get(target, key, receiver);
    },
  });
}
