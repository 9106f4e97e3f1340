/** Handlers for the bundled notes-server manifest, with an in-memory store. */
import { ToolError, type Handlers, type Note } from "../../generated/notes-server/index.js";

export function notesHandlers(): Handlers {
  const notes = new Map<string, Note>([["n1", { id: "n1", title: "Groceries", body: "milk, eggs", tags: ["home"] }]]);
  let next = 2;
  return {
    tools: {
      create_note: ({ title, body, tags }) => {
        const note: Note = { id: `n${next++}`, title, body, ...(tags ? { tags } : {}) };
        notes.set(note.id, note);
        return note;
      },
      search_notes: async ({ query = "", limit = 10 }, ctx) => {
        // A task when the client takes one (2026-07-28; a 2025 client asks with params.task).
        await ctx.startTask();
        const found = [...notes.values()].filter((n) => n.title.includes(query) || n.body.includes(query));
        return { notes: found.slice(0, limit), total: found.length };
      },
      folder_tree: () => ({ root: { name: "root", notes: [...notes.values()], children: [{ name: "archive", children: [] }] } }),
      "delete-note": ({ id }) => {
        if (!notes.delete(id)) throw new ToolError(`No note ${id}`);
        return `Deleted ${id}`;
      },
      "export.notes": () => ({
        content: [{ type: "resource", resource: { uri: "notes://export.json", mimeType: "application/json", text: JSON.stringify([...notes.values()]) } }],
      }),
    },
    resources: {
      index: () => [...notes.values()].map((n) => n.title).join("\n"),
    },
    resourceTemplates: {
      note: ({ id }, ctx) => {
        const note = notes.get(id);
        if (!note) throw Object.assign(new Error("Resource not found"), { code: -32002, data: { uri: ctx.uri } });
        return JSON.stringify(note);
      },
    },
    prompts: {
      summarize_note: ({ id, style }) => ({
        messages: [{ role: "user", content: { type: "text", text: `Summarize note ${id}${style ? ` as ${style}` : ""}.` } }],
      }),
    },
  };
}
