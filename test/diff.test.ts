/**
 * `mcpgen diff`: each change classified for clients and for servers, on crafted manifest pairs;
 * the table, the JSON, --fail-on, fixture folders and REF:path sides, and bad input.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { classify, type Difference, type Surface } from "../src/commands/diff/classify.js";
import { elide, fails, formatDifferences } from "../src/commands/diff/format.js";
import { mcpgen, ROOT } from "./helpers/cli.js";
import { tempProject } from "./helpers/tmp.js";
import { GIFT_WITHOUT_WIDGET } from "./helpers/manifests.js";

const surface = (parts: Partial<Surface>): Surface => ({ source: "x", tools: [], resources: [], resourceTemplates: [], prompts: [], ...parts });
const tool = (name: string, input: object, output?: object, extra: object = {}) => ({
  name,
  inputSchema: { type: "object", ...input },
  ...(output ? { outputSchema: { type: "object", ...output } } : {}),
  ...extra,
});
const brief = (changes: Difference[]) =>
  changes.map((c) => `${c.change} ${c.name}${c.path ? ` ${c.path}` : ""} clients:${c.clients ? "BREAK" : "ok"} servers:${c.servers ? "BREAK" : "ok"}`);

describe("classify", () => {
  it("tools removed, renamed (same schemas) and added", () => {
    const before = surface({ tools: [tool("a", { properties: { q: { type: "string" } } }), tool("b", {})] });
    const after = surface({ tools: [tool("a2", { properties: { q: { type: "string" } } }), tool("c", { properties: { n: { type: "number" } } })] });
    expect(brief(classify(before, after))).toEqual([
      "tool-renamed a clients:BREAK servers:BREAK",
      "tool-removed b clients:BREAK servers:ok",
      "tool-added c clients:ok servers:BREAK",
    ]);
  });

  it("an entry becoming enabled: false is removed for clients (its own row); enabled again is no break", () => {
    const off = (tools: string[], resources: string[] = [], prompts: string[] = []) => ({
      tools: new Set(tools),
      resources: new Set(resources),
      resourceTemplates: new Set<string>(),
      prompts: new Set(prompts),
    });
    const tools = [tool("a", {}), tool("b", {})];
    const resources = [{ uri: "x://r", name: "r" }];
    const prompts = [{ name: "p" }];
    const before = surface({ tools, resources, prompts, disabled: off(["b"]) });
    const after = surface({ tools, resources, prompts, disabled: off(["a"], ["x://r"], ["p"]) });
    expect(brief(classify(before, after))).toEqual([
      "tool-disabled a enabled clients:BREAK servers:ok",
      "tool-enabled b enabled clients:ok servers:ok",
      "resource-disabled x://r enabled clients:BREAK servers:ok",
      "prompt-disabled p enabled clients:BREAK servers:ok",
    ]);
    // Fixture folders are the full lists: no switch is read from them.
    expect(classify(surface({ tools }), surface({ tools, disabled: off(["a"]) }))).toEqual([]);
  });

  it("inputs: a new required argument and a narrowed type break clients; a widened one breaks servers", () => {
    const before = surface({
      tools: [tool("t", { properties: { q: { type: "string" }, n: { type: "integer" }, mode: { enum: ["a", "b"] } }, required: ["q"] })],
    });
    const after = surface({
      tools: [
        tool("t", {
          properties: { q: { type: "string" }, n: { type: "number" }, mode: { enum: ["a"] }, force: { type: "boolean" } },
          required: ["q", "force"],
        }),
      ],
    });
    const changes = classify(before, after);
    expect(brief(changes)).toEqual([
      "input-widened t inputSchema.properties.n.type clients:ok servers:BREAK",
      "input-narrowed t inputSchema.properties.mode.enum clients:BREAK servers:ok",
      // One row for one change: added, and required (calls without it are refused).
      "input-property-added t inputSchema.properties.force clients:BREAK servers:ok",
    ]);
    expect(changes.map((c) => c.message)).toEqual(["now accepts number", 'value "b" removed', "required property force added"]);
    // number -> integer refuses only numbers with a fraction, and says so.
    const integer = classify(
      surface({ tools: [tool("t", { properties: { n: { type: "number" } } })] }),
      surface({ tools: [tool("t", { properties: { n: { type: "integer" } } })] }),
    );
    expect(integer.map((c) => `${c.change} ${c.message} clients:${c.clients}`)).toEqual(["input-narrowed accepts only integers now clients:true"]);
  });

  it("an optional property added to an open input is compatible; to a closed one it widens (the handler gets more)", () => {
    const open = classify(
      surface({ tools: [tool("t", { properties: { q: { type: "string" } } })] }),
      surface({ tools: [tool("t", { properties: { q: { type: "string" }, limit: { type: "integer" } } })] }),
    );
    expect(brief(open)).toEqual(["input-property-added t inputSchema.properties.limit clients:ok servers:ok"]);
    const closed = classify(
      surface({ tools: [tool("t", { properties: {}, additionalProperties: false })] }),
      surface({ tools: [tool("t", { properties: { limit: { type: "integer" } }, additionalProperties: false })] }),
    );
    expect(brief(closed)).toEqual(["input-property-added t inputSchema.properties.limit clients:ok servers:BREAK"]);
  });

  // Issue 28: renaming `language` to `lang` was "ok ... input-widened", yet the typed call
  // `{language: "fr"}` stops compiling (excess property check), and the server ignores it.
  it("an input property removed or renamed breaks clients (and the handlers reading it), whatever additionalProperties says", () => {
    const greet = (language: string, extra: object = {}) =>
      tool("greet", {
        properties: { name: { type: "string", minLength: 1 }, [language]: { type: "string", enum: ["en", "fr"], default: "en" } },
        required: ["name"],
        ...extra,
      });
    const renamed = classify(surface({ tools: [greet("language")] }), surface({ tools: [greet("lang")] }));
    expect(brief(renamed)).toEqual(["input-property-renamed greet inputSchema.properties.language clients:BREAK servers:BREAK"]);
    expect(renamed[0]!.message).toBe("property language renamed to lang? (same schema): typed calls that send it no longer compile, and the server ignores it");
    const name = { properties: { name: { type: "string", minLength: 1 } }, required: ["name"] };
    for (const [extra, message] of [
      [{}, "property language removed: typed calls that send it no longer compile, and the server ignores it"],
      [{ additionalProperties: false }, "property language removed (no longer accepted): calls that send it are refused"],
      [{ additionalProperties: true }, "property language removed: calls that send it still compile, but the server no longer reads it"],
    ] as const) {
      const removed = classify(surface({ tools: [greet("language", extra)] }), surface({ tools: [tool("greet", { ...name, ...extra })] }));
      expect(removed.map((c) => `${c.change} clients:${c.clients} servers:${c.servers} ${c.message}`)).toEqual([
        `input-property-removed clients:true servers:true ${message}`,
      ]);
    }
  });

  it("one change is one row: a type or an enum that both narrows and widens, a removed required property", () => {
    const before = surface({
      tools: [
        tool(
          "t",
          { properties: { even: { type: "string", minLength: 1 }, mode: { enum: ["a", "b"] } } },
          { properties: { n: { type: "number" } }, required: ["n"] },
        ),
      ],
    });
    const after = surface({
      tools: [tool("t", { properties: { even: { type: "array", minItems: 1 }, mode: { enum: ["a", "c"] } } }, { properties: {} })],
    });
    expect(classify(before, after).map((c) => `${c.change} ${c.path} clients:${c.clients} servers:${c.servers} ${c.message}`)).toEqual([
      "input-changed inputSchema.properties.even.type clients:true servers:true no longer accepts string (with its minLength); now accepts array (with its minItems)",
      'input-changed inputSchema.properties.mode.enum clients:true servers:true value "b" removed; value "c" added',
      "output-property-removed outputSchema.properties.n clients:true servers:true property n removed, it was required: code that reads it no longer compiles",
    ]);
  });

  it("an input that stops admitting undeclared properties breaks only where its type admitted them", () => {
    // `{type: object}` is `{ [key: string]: unknown }`: a typed call may hold any property.
    const open = classify(surface({ tools: [tool("t", {})] }), surface({ tools: [tool("t", { properties: { q: { type: "string" } } })] }));
    expect(brief(open)).toEqual([
      "input-property-added t inputSchema.properties.q clients:BREAK servers:ok",
      "input-type-closed t inputSchema.additionalProperties clients:BREAK servers:BREAK",
    ]);
    // With declared properties and no index signature, no typed call sends another property.
    const declared = classify(
      surface({ tools: [tool("t", { properties: { q: { type: "string" } } })] }),
      surface({ tools: [tool("t", { properties: { q: { type: "string" } }, additionalProperties: false })] }),
    );
    expect(declared.map((c) => `${c.change} clients:${c.clients} ${c.message}`)).toEqual([
      "input-undeclared-changed clients:false was unconstrained, now constrained (for undeclared properties, which the old type does not admit)",
    ]);
    // The other way on an output: the server may now return more than the old schema allowed
    // (a handler's object may carry more than its type declares), and the generated client
    // checks results against the outputSchema it was built from.
    const opened = classify(
      surface({ tools: [tool("t", {}, { properties: { q: { type: "string" } }, additionalProperties: false })] }),
      surface({ tools: [tool("t", {}, { properties: { q: { type: "string" } } })] }),
    );
    expect(brief(opened)).toEqual(["output-widened t outputSchema.additionalProperties clients:BREAK servers:ok"]);
  });

  it("taskSupport: becoming required or forbidden breaks clients; a rename needs telling schemas or the same description", () => {
    const task = (support: string) => tool("v", {}, undefined, { execution: { taskSupport: support } });
    expect(brief(classify(surface({ tools: [task("optional")] }), surface({ tools: [task("forbidden")] })))).toEqual([
      "task-support-changed v execution.taskSupport clients:BREAK servers:ok",
    ]);
    expect(brief(classify(surface({ tools: [task("required")] }), surface({ tools: [task("optional")] })))).toEqual([
      "task-support-changed v execution.taskSupport clients:ok servers:ok",
    ]);
    // `ping` and `status`, both `{type: object}`, are two tools, not a rename.
    expect(brief(classify(surface({ tools: [tool("ping", {})] }), surface({ tools: [tool("status", {})] })))).toEqual([
      "tool-removed ping clients:BREAK servers:ok",
      "tool-added status clients:ok servers:BREAK",
    ]);
  });

  it("a tool renamed and changed is paired by likeness: the rename, then its changes under the new name, each with its verdict", () => {
    const find = tool("findBook", { properties: { query: { type: "string" } }, required: ["query"] }, undefined, { description: "Find a book by title" });
    const search = tool("searchBooks", { properties: { query: { type: "string" }, limit: { type: "integer" } }, required: ["query", "limit"] }, undefined, {
      description: "Find books by title",
    });
    const changes = classify(surface({ tools: [find] }), surface({ tools: [search] }));
    expect(brief(changes)).toEqual([
      "tool-renamed findBook clients:BREAK servers:BREAK",
      "input-property-added searchBooks inputSchema.properties.limit clients:BREAK servers:ok",
      "description-changed searchBooks description clients:ok servers:ok",
    ]);
    expect(changes[0]!.message).toBe(
      "renamed to searchBooks? (alike: input properties, description): calls by the old name fail; its other changes are listed under searchBooks",
    );
    // Two added tools like it: the likest is the rename, the other an addition.
    const listBooks = tool("listBooks", { properties: { page: { type: "integer" } } }, undefined, { description: "List every book" });
    expect(brief(classify(surface({ tools: [find] }), surface({ tools: [listBooks, search] })))).toEqual([
      "tool-renamed findBook clients:BREAK servers:BREAK",
      "input-property-added searchBooks inputSchema.properties.limit clients:BREAK servers:ok",
      "description-changed searchBooks description clients:ok servers:ok",
      "tool-added listBooks clients:ok servers:BREAK",
    ]);
  });

  it("tools that share a property or a word, and nothing more, are not a rename", () => {
    const deleteBook = tool("deleteBook", { properties: { id: { type: "string" } } });
    const getAuthor = tool("getAuthor", { properties: { id: { type: "string" }, full: { type: "boolean" } } });
    expect(brief(classify(surface({ tools: [deleteBook] }), surface({ tools: [getAuthor] })))).toEqual([
      "tool-removed deleteBook clients:BREAK servers:ok",
      "tool-added getAuthor clients:ok servers:BREAK",
    ]);
    const addBook = tool("addBook", { properties: { title: { type: "string" } } }, undefined, { description: "Add a book" });
    const addReview = tool("addReview", { properties: { stars: { type: "integer" }, text: { type: "string" } } }, undefined, {
      description: "Add a review of a book",
    });
    expect(brief(classify(surface({ tools: [addBook] }), surface({ tools: [addReview] })))).toEqual([
      "tool-removed addBook clients:BREAK servers:ok",
      "tool-added addReview clients:ok servers:BREAK",
    ]);
  });

  it("serverInfo and instructions changes are listed, never breaking", () => {
    const before = surface({ server: { info: { name: "s", version: "1.0.0" }, instructions: "a" } });
    const after = surface({ server: { info: { name: "s", version: "1.1.0", title: "S" }, instructions: "b" } });
    expect(brief(classify(before, after))).toEqual([
      "server-version-changed s serverInfo.version clients:ok servers:ok",
      "server-info-changed s serverInfo.title clients:ok servers:ok",
      "instructions-changed s instructions clients:ok servers:ok",
    ]);
  });

  it("outputs: a property removed or made optional breaks clients; an enum value removed breaks servers", () => {
    const out = (required: string[], status: string[]) => ({
      properties: { id: { type: "string" }, price: { type: "number" }, status: { enum: status } },
      required,
    });
    const before = surface({ tools: [tool("t", {}, out(["id", "price"], ["open", "closed"]))] });
    const after = surface({ tools: [tool("t", {}, { ...out(["id"], ["open"]), properties: { id: { type: "string" }, status: { enum: ["open"] } } })] });
    const changes = classify(before, after);
    // One row for the removed property (it was two: "no longer required" and "removed").
    expect(brief(changes)).toEqual([
      "output-narrowed t outputSchema.properties.status.enum clients:ok servers:BREAK",
      "output-property-removed t outputSchema.properties.price clients:BREAK servers:BREAK",
    ]);
    expect(changes.map((c) => c.message)).toEqual(['value "closed" removed', "property price removed, it was required: code that reads it no longer compiles"]);
    // From a closed output too: the wire narrows, yet code reading the property no longer compiles.
    const closed = classify(
      surface({ tools: [tool("t", {}, { properties: { id: { type: "string" }, note: { type: "string" } }, additionalProperties: false })] }),
      surface({ tools: [tool("t", {}, { properties: { id: { type: "string" } }, additionalProperties: false })] }),
    );
    expect(brief(closed)).toEqual(["output-property-removed t outputSchema.properties.note clients:BREAK servers:BREAK"]);
  });

  it("an outputSchema added or removed; taskSupport becoming required; description-only changes are compatible", () => {
    const before = surface({ tools: [tool("t", {}, undefined, { description: "old" }), tool("u", {}, { properties: {} }), tool("v", {})] });
    const after = surface({
      tools: [tool("t", {}, { properties: {} }, { description: "new" }), tool("u", {}), tool("v", {}, undefined, { execution: { taskSupport: "required" } })],
    });
    expect(brief(classify(before, after))).toEqual([
      "output-added t outputSchema clients:BREAK servers:BREAK",
      "description-changed t description clients:ok servers:ok",
      "output-removed u outputSchema clients:BREAK servers:ok",
      "task-support-changed v execution.taskSupport clients:BREAK servers:ok",
    ]);
  });

  it("resources, templates and prompts: removed, renamed, MIME type, arguments", () => {
    const before = surface({
      resources: [
        { uri: "r://a", name: "a", mimeType: "text/plain" },
        { uri: "r://gone", name: "gone" },
      ],
      resourceTemplates: [{ uriTemplate: "t://{id}", name: "t" }],
      prompts: [{ name: "p", arguments: [{ name: "tone" }, { name: "who", required: true }, { name: "old" }] }],
    });
    const after = surface({
      resources: [
        { uri: "r://a", name: "alpha", mimeType: "application/json" },
        { uri: "r://new", name: "new" },
      ],
      resourceTemplates: [{ uriTemplate: "t://{id}/v2", name: "t" }],
      prompts: [{ name: "p", arguments: [{ name: "tone", required: true }, { name: "who" }, { name: "lang", required: true }] }],
      staticResources: new Set(["r://new"]),
    });
    expect(brief(classify(before, after))).toEqual([
      "resource-renamed r://a name clients:BREAK servers:BREAK",
      "mime-type-changed r://a mimeType clients:BREAK servers:ok",
      "resource-removed r://gone clients:BREAK servers:ok",
      "resource-added r://new clients:ok servers:ok",
      "template-removed t://{id} clients:BREAK servers:ok",
      "template-added t://{id}/v2 clients:ok servers:BREAK",
      "argument-now-required p arguments.tone clients:BREAK servers:ok",
      "argument-now-optional p arguments.who clients:ok servers:BREAK",
      "argument-removed p arguments.old clients:BREAK servers:ok",
      "argument-added-required p arguments.lang clients:BREAK servers:ok",
    ]);
  });
});

describe("annotation hints: their own class, behaviour", () => {
  const annotated = (annotations?: object) => surface({ tools: [tool("t", {}, undefined, annotations ? { annotations } : {})] });
  const rows = (a?: object, b?: object) =>
    classify(annotated(a), annotated(b)).map((c) => ({
      path: c.path,
      change: c.change,
      message: c.message,
      clients: c.clients,
      servers: c.servers,
      behaviour: c.behaviour === true,
    }));

  it("a hint changed is a behaviour change, neither breaking side; what clients then do is said", () => {
    expect(rows({ readOnlyHint: false }, { readOnlyHint: true })).toEqual([
      {
        path: "annotations.readOnlyHint",
        change: "hint-changed",
        message: "readOnlyHint false -> true: clients that auto-approve read-only tools now run it without asking",
        clients: false,
        servers: false,
        behaviour: true,
      },
    ]);
    expect(rows({ readOnlyHint: true, title: "T" }, { destructiveHint: false, title: "T2" })).toEqual([
      {
        path: "annotations.readOnlyHint",
        change: "hint-changed",
        message: "readOnlyHint true -> unset (false): clients that auto-approved it as read-only now ask before running it",
        clients: false,
        servers: false,
        behaviour: true,
      },
      {
        path: "annotations.destructiveHint",
        change: "hint-changed",
        message: "destructiveHint unset (true) -> false: clients may now run it with less confirmation",
        clients: false,
        servers: false,
        behaviour: true,
      },
      { path: "annotations", change: "annotations-changed", message: "annotations changed", clients: false, servers: false, behaviour: false },
    ]);
    expect(rows(undefined, { idempotentHint: true, openWorldHint: false }).map((r) => r.message)).toEqual([
      "idempotentHint unset (false) -> true: clients may now retry it",
      "openWorldHint unset (true) -> false: it no longer reaches outside systems, as clients are told",
    ]);
  });

  it("a hint written out at its default is no change", () => {
    expect(rows(undefined, { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true })).toEqual([]);
  });

  it("fails the run only under --fail-on behaviour (alone or with other levels)", () => {
    const changes = classify(annotated({ readOnlyHint: false }), annotated({ readOnlyHint: true }));
    expect(fails(changes, ["breaking"])).toBe(false);
    expect(fails(changes, ["either"])).toBe(false);
    expect(fails(changes, ["behaviour"])).toBe(true);
    expect(fails(changes, ["servers", "behaviour"])).toBe(true);
    expect(fails(changes, ["any"])).toBe(true);
  });
});

describe("execution", () => {
  it("taskSupport forbidden written out or left out is the same", () => {
    const t = (execution?: object) => surface({ tools: [tool("t", {}, undefined, execution ? { execution } : {})] });
    expect(classify(t({ taskSupport: "forbidden" }), t())).toEqual([]);
    expect(brief(classify(t({ taskSupport: "forbidden" }), t({ taskSupport: "forbidden", other: 1 })))).toEqual([
      "execution-changed t execution clients:ok servers:ok",
    ]);
  });
});

describe("the table", () => {
  const change = (path: string, name = "t"): Difference => ({
    kind: "tool",
    name,
    path,
    change: "input-narrowed",
    message: "minLength 1 added",
    clients: true,
    servers: false,
  });

  it("sizes its columns to their content, and lines up rows whatever the length of a path", () => {
    const long = "inputSchema.properties.pipeline.items.properties.$vectorSearch.properties.filter.minProperties";
    const text = formatDifferences(
      [change("inputSchema.properties.q"), change(long, "a_tool_with_a_rather_long_name_indeed_yes_quite_long"), change("x")],
      "table",
    );
    const lines = text.split("\n").filter((l) => l.includes("input-narrowed") || l.includes("CHANGE"));
    expect(lines).toHaveLength(4);
    const at = lines.map((l) => l.indexOf(l.includes("CHANGE") ? "CHANGE" : "input-narrowed"));
    expect(new Set(at).size).toBe(1);
    // Cut in the middle to the cap of 64, both ends kept.
    expect(elide(long, 64)).toBe("inputSchema.properties.pipeline.…properties.filter.minProperties");
    expect([...elide(long, 64)].length).toBe(64);
    expect(text).toContain("  inputSchema.properties.pipeline.…properties.filter.minProperties  input-narrowed");
    expect(text).toContain("  tool a_tool_with_a_r…deed_yes_quite_long  inputSchema");
    // Short content: no wider than it needs.
    expect(formatDifferences([change("x")], "table").split("\n")[0]).toBe("  CLIENTS   SERVERS  WHAT    WHERE  CHANGE          DETAIL");
  });

  it("a behaviour change shows in the CLIENTS column and in the summary, after breaking changes", () => {
    const hint: Difference = {
      kind: "tool",
      name: "t",
      path: "annotations.readOnlyHint",
      change: "hint-changed",
      message: "readOnlyHint false -> true",
      clients: false,
      servers: false,
      behaviour: true,
    };
    const info: Difference = {
      kind: "tool",
      name: "t",
      path: "description",
      change: "description-changed",
      message: "description changed",
      clients: false,
      servers: false,
    };
    expect(formatDifferences([info, hint, change("inputSchema.properties.q")], "table")).toBe(
      [
        "  CLIENTS    SERVERS  WHAT    WHERE                     CHANGE               DETAIL",
        "  BREAKING   ok       tool t  inputSchema.properties.q  input-narrowed       minLength 1 added",
        "  BEHAVIOUR  ok       tool t  annotations.readOnlyHint  hint-changed         readOnlyHint false -> true",
        "  ok         ok       tool t  description               description-changed  description changed",
        "",
        "  3 changes: 1 breaking for clients, 0 breaking for servers, 1 changing client behaviour, 1 compatible",
        "",
      ].join("\n"),
    );
  });
});

const GIFTS = GIFT_WITHOUT_WIDGET;

describe("mcpgen diff", () => {
  it("prints a table, breaking changes first, and exits 1 on breaking changes by default", () => {
    const dir = tempProject({
      "old.yaml": GIFTS,
      "new.yaml": GIFTS.replace("required: [occasion, budget]", "required: [occasion, budget, recipient]").replace("Suggests gift ideas", "Suggests gifts"),
    });
    const r = mcpgen(["diff", "old.yaml", "new.yaml"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        "mcpgen: old.yaml -> new.yaml",
        "  CLIENTS   SERVERS  WHAT                WHERE                             CHANGE               DETAIL",
        "  BREAKING  ok       tool suggest_gifts  inputSchema.properties.recipient  input-narrowed       recipient is now required",
        "  ok        ok       tool suggest_gifts  description                       description-changed  description changed",
        "",
        "  2 changes: 1 breaking for clients, 0 breaking for servers, 0 changing client behaviour, 1 compatible",
        "",
      ].join("\n"),
    );
    expect(r.stderr).toBe("mcpgen: failing: changes breaking for clients (--fail-on breaking).\n");
    expect(mcpgen(["diff", "old.yaml", "new.yaml", "--fail-on", "servers"], dir).code).toBe(0);
    expect(mcpgen(["diff", "old.yaml", "new.yaml", "--fail-on", "either"], dir).code).toBe(1);
    expect(mcpgen(["diff", "old.yaml", "new.yaml", "--fail-on", "none"], dir).code).toBe(0);
    expect(mcpgen(["diff", "old.yaml", "old.yaml", "--fail-on", "any"], dir)).toMatchObject({
      code: 0,
      stdout: "mcpgen: old.yaml -> old.yaml\n  no changes\n",
    });
  });

  it("a tool renamed and given one more property: one rename row and its change, not a removal and an addition", () => {
    const before = GIFTS;
    const after = GIFTS.replace("name: suggest_gifts", "name: suggest_presents").replace(
      "        recipient: {type: string, description: Who the gift is for.}\n",
      "        recipient: {type: string, description: Who the gift is for.}\n        wrapped: {type: boolean}\n",
    );
    expect(after).not.toBe(before);
    const r = mcpgen(["diff", "old.yaml", "new.yaml"], tempProject({ "old.yaml": before, "new.yaml": after }));
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n").slice(1)).toEqual([
      "  CLIENTS   SERVERS   WHAT                   WHERE                           CHANGE                DETAIL",
      "  BREAKING  BREAKING  tool suggest_gifts     -                               tool-renamed          renamed to suggest_presents? (alike: name, input properties, output properties, description): calls by the old name fail; its other changes are listed under suggest_presents",
      "  ok        ok        tool suggest_presents  inputSchema.properties.wrapped  input-property-added  property wrapped added: only calls that sent it undeclared (no typed one) may be refused",
      "",
      "  2 changes: 1 breaking for clients, 1 breaking for servers, 0 changing client behaviour, 1 compatible",
      "",
    ]);
  });

  it("an annotation hint changed: BEHAVIOUR, exit 0 unless --fail-on behaviour", () => {
    const dir = tempProject({ "old.yaml": GIFTS, "new.yaml": GIFTS.replace("readOnlyHint: true", "readOnlyHint: false") });
    const r = mcpgen(["diff", "old.yaml", "new.yaml"], dir);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toMatch(
      /\n {2}BEHAVIOUR {2}ok {7}tool suggest_gifts {2}annotations\.readOnlyHint {2}hint-changed {2}readOnlyHint true -> false: clients that auto-approved it as read-only now ask before running it\n/,
    );
    expect(r.stdout).toContain("1 change: 0 breaking for clients, 0 breaking for servers, 1 changing client behaviour, 0 compatible");
    expect(mcpgen(["diff", "old.yaml", "new.yaml", "--fail-on", "behaviour"], dir)).toMatchObject({
      code: 1,
      stderr: "mcpgen: failing: changes of client behaviour (annotation hints) (--fail-on behaviour).\n",
    });
    expect(mcpgen(["diff", "old.yaml", "new.yaml", "--fail-on", "breaking,behaviour"], dir)).toMatchObject({
      code: 1,
      stderr: "mcpgen: failing: changes of client behaviour (annotation hints) (--fail-on breaking,behaviour).\n",
    });
    const json = JSON.parse(mcpgen(["diff", "old.yaml", "new.yaml", "--format", "json"], dir).stdout);
    expect(json.summary).toEqual({ changes: 1, breakingClients: 0, breakingServers: 0, behaviour: 1, compatible: 0 });
    expect(json.changes[0]).toMatchObject({ change: "hint-changed", clients: false, servers: false, behaviour: true });
  });

  it("--format json is machine-readable, with a summary", () => {
    const dir = tempProject({
      "old.yaml": GIFTS,
      "new.yaml": GIFTS.replace("price: {type: number, minimum: 0,", "price: {type: [number, string], minimum: 0,"),
    });
    const r = mcpgen(["diff", "old.yaml", "new.yaml", "--format=json"], dir);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      before: "old.yaml",
      after: "new.yaml",
      summary: { changes: 1, breakingClients: 1, breakingServers: 0, behaviour: 0, compatible: 0 },
      changes: [
        {
          kind: "tool",
          name: "suggest_gifts",
          path: "outputSchema.properties.gifts.items.properties.price.type",
          change: "output-widened",
          message: "now accepts string",
          clients: true,
          servers: false,
          behaviour: false,
        },
      ],
    });
  });

  it("compares fixture folders as mcpgen generates them", () => {
    const dir = tempProject({});
    const fixtures = path.join(ROOT, "examples/gift-server/generated/gift-server");
    const r = mcpgen(["diff", fixtures, path.join(fixtures, "fixtures")], dir);
    expect(r).toMatchObject({ code: 0, stdout: expect.stringContaining("no changes") });
    const other = path.join(ROOT, "generated/notes-server");
    const cross = mcpgen(["diff", fixtures, other, "--format", "json"], dir);
    expect(cross.code).toBe(1);
    expect(JSON.parse(cross.stdout).changes).toContainEqual(expect.objectContaining({ change: "tool-removed", name: "suggest_gifts" }));
  });

  it("reads a side from git as REF:path", () => {
    const dir = tempProject({ "manifests/gifts.yaml": GIFTS });
    const git = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" },
      });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "gifts");
    writeFileSync(path.join(dir, "manifests/gifts.yaml"), GIFTS.replace(/\nprompts:[\s\S]*$/, "\n"));
    const r = mcpgen(["diff", "HEAD:manifests/gifts.yaml", "manifests/gifts.yaml"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/BREAKING\s+ok\s+prompt gift_congrats_style\s+-\s+prompt-removed/);
    const missing = mcpgen(["diff", "HEAD:manifests/nope.yaml", "manifests/gifts.yaml"], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^mcpgen: HEAD:manifests\/nope\.yaml: error diff-input: cannot read it from git: fatal: path 'manifests\/nope\.yaml' does not exist in 'HEAD'/,
    );
  });

  it("an invalid side is reported with file:line:col and exit 2; usage errors exit 2 with help", () => {
    const dir = tempProject({ "old.yaml": GIFTS, "bad.yaml": GIFTS.replace("inputSchema:\n      type: object", "inputSchema:\n      type: obj") });
    const r = mcpgen(["diff", "old.yaml", "bad.yaml"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mcpgen: bad\.yaml: error diff-input: not a valid manifest, so it cannot be compared:\n {2}bad\.yaml:\d+:\d+: error /);
    expect(mcpgen(["diff", "old.yaml"], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining("diff takes two sides, OLD and NEW; got 1") });
    expect(mcpgen(["diff", "old.yaml", "old.yaml", "--fail-on", "major"], dir)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--fail-on is breaking, clients, servers, either, behaviour, any or none (or several, comma-separated), not "major"'),
    });
    expect(mcpgen(["diff", "old.yaml", "old.yaml", "--fail-on", "breaking,major"], dir)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('not "major"'),
    });
    expect(mcpgen(["diff", "nope.yaml", "old.yaml"], dir)).toMatchObject({
      code: 2,
      stderr: "mcpgen: nope.yaml: error diff-input: no such file or folder (give a manifest, a fixtures folder, or REF:path for a manifest in git)\n",
    });
    expect(mcpgen(["diff", "--help"], dir)).toMatchObject({ code: 0, stdout: expect.stringContaining("mcpgen diff OLD NEW") });
  });
});
