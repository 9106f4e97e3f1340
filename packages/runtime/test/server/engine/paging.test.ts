import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, pageOf } from "../../../src/server/engine/paging.js";

const items = ["a", "b", "c", "d", "e"];
const invalid = { code: -32602, message: "Invalid cursor: pass the nextCursor of the previous page, or none for the first page" };

describe("cursor paging (lists and tasks/list)", () => {
  it("answers everything in one page without a page size, the list itself", () => {
    const page = pageOf(items, undefined, undefined, "tools");
    expect(page.items).toBe(items);
    expect(page.nextCursor).toBeUndefined();
    expect(pageOf(items, null, undefined, "tools").items).toBe(items);
  });

  it("walks pages with the cursor each page gives, to the end", () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = pageOf(items, cursor, 2, "tools");
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(seen).toEqual(items);
    expect(pages).toBe(3);
  });

  it("gives no nextCursor when the page ends exactly at the end", () => {
    expect(pageOf(items.slice(0, 4), encodeCursor(2, "tasks"), 2, "tasks")).toEqual({ items: ["c", "d"] });
  });

  it.each([
    ["another list's cursor", encodeCursor(2, "prompts")],
    ["a cursor past the end", encodeCursor(6, "tools")],
    ["a cursor that is not one", "tools.-1"],
    ["a cursor of another shape", "tools.2.3"],
    ["a number", 2],
    ["an empty string", ""],
  ])("refuses %s with -32602", (_, cursor) => {
    expect(() => pageOf(items, cursor, 2, "tools")).toThrow(expect.objectContaining(invalid));
  });

  it("refuses any cursor when there is no page size (it never issued one)", () => {
    expect(() => pageOf(items, encodeCursor(2, "tools"), undefined, "tools")).toThrow(expect.objectContaining(invalid));
  });

  it("accepts the cursor at the very end (an empty last page)", () => {
    expect(pageOf(items, encodeCursor(5, "tools"), 2, "tools")).toEqual({ items: [] });
  });

  it("encodes and decodes offsets in base 36, bound to their list", () => {
    expect(encodeCursor(1000, "resourceTemplates")).toBe("resourceTemplates.rs");
    expect(decodeCursor("resourceTemplates.rs", "resourceTemplates")).toBe(1000);
    expect(decodeCursor("resourceTemplates.rs", "resources")).toBeUndefined();
  });
});
