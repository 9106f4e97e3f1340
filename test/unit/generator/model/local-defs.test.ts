/** Types for the schemas' own `$defs`: only the used ones, one type for the same entry in several schemas. */
import { describe, expect, it } from "vitest";
import { emitTypes } from "../../../../src/generator/emit/types.js";
import { canonicalJson, usedLocalDefs } from "../../../../src/generator/model/localDefs.js";
import { modelOf } from "../../../helpers/model.js";

const RICH = "{type: object, properties: {text: {type: string}, link: {type: [string, 'null']}}, required: [text]}";
const RICH_REORDERED = "{required: [text], properties: {link: {type: [string, 'null']}, text: {type: string}}, type: object}";

/** A manifest of tools, each `[name, inputSchema]` as YAML flow text. */
function manifest(tools: [string, string][], extra = ""): string {
  return `server: {name: s, version: '1'}\n${extra}tools:\n${tools.map(([name, schema]) => `  - name: ${name}\n    inputSchema: ${schema}\n`).join("")}`;
}

/** The names types.ts declares, in order, without the name maps every types.ts has. */
function declared(text: string): string[] {
  const maps = new Set([
    "ToolInputs",
    "ToolOutputs",
    "ToolName",
    "ResourceName",
    "ResourceUri",
    "ResourceTemplateVariables",
    "ResourceTemplateName",
    "PromptArguments",
    "PromptName",
    "ListNames",
    "ListTag",
  ]);
  return [...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!).filter((n) => !maps.has(n));
}

async function typesOf(yaml: string): Promise<string> {
  return emitTypes(await modelOf(yaml))[0]!.content;
}

const withRich = (rich: string, prop = "{$ref: '#/$defs/richText'}") => `{type: object, $defs: {richText: ${rich}}, properties: {title: ${prop}}}`;

describe("local $defs types", () => {
  const cases: [string, { given: string; want: string[] }][] = [
    [
      "the same entry in two tools is one type, named after the entry, declared with the first tool",
      {
        given: manifest([
          ["create", withRich(RICH)],
          ["update", withRich(RICH)],
        ]),
        want: ["CreateInput", "RichText", "UpdateInput"],
      },
    ],
    [
      "key order makes no difference",
      {
        given: manifest([
          ["create", withRich(RICH)],
          ["update", withRich(RICH_REORDERED)],
        ]),
        want: ["CreateInput", "RichText", "UpdateInput"],
      },
    ],
    [
      "an entry of one tool keeps the tool's prefix",
      {
        given: manifest([
          ["create", withRich(RICH)],
          ["other", "{type: object}"],
        ]),
        want: ["CreateInput", "CreateInputRichText", "OtherInput"],
      },
    ],
    [
      "different entries with one name: the first in manifest order gets the name, the other its tool's prefix",
      {
        given: manifest([
          ["a", withRich(RICH)],
          ["b", withRich("{type: string}")],
          ["c", withRich(RICH)],
          ["d", withRich("{type: string}")],
        ]),
        want: ["AInput", "RichText", "BInput", "BInputRichText", "CInput", "DInput"],
      },
    ],
    [
      "unused entries get no type, even shared ones",
      {
        given: manifest([
          ["none", "{type: object, $defs: {richText: " + RICH + ", unused: {type: string}}}"],
          ["some", withRich(RICH)],
        ]),
        want: ["NoneInput", "SomeInput", "RichText"],
      },
    ],
    [
      "an entry used only through another entry is kept, and shared with it",
      {
        given: manifest([
          [
            "a",
            "{type: object, $defs: {block: {type: object, properties: {text: {$ref: '#/$defs/richText'}}}, richText: " +
              RICH +
              ", unused: {$ref: '#/$defs/richText'}}, properties: {b: {$ref: '#/$defs/block'}}}",
          ],
          [
            "b",
            "{type: object, $defs: {block: {type: object, properties: {text: {$ref: '#/$defs/richText'}}}, richText: " +
              RICH +
              "}, properties: {b: {$ref: '#/$defs/block'}}}",
          ],
        ]),
        want: ["AInput", "Block", "RichText", "BInput"],
      },
    ],
    [
      "the same entry referring to different entries under one name is not the same",
      {
        given: manifest([
          ["a", "{type: object, $defs: {block: {$ref: '#/$defs/richText'}, richText: " + RICH + "}, properties: {b: {$ref: '#/$defs/block'}}}"],
          ["b", "{type: object, $defs: {block: {$ref: '#/$defs/richText'}, richText: {type: string}}, properties: {b: {$ref: '#/$defs/block'}}}"],
          ["c", "{type: object, $defs: {block: {$ref: '#/$defs/richText'}, richText: " + RICH + "}, properties: {b: {$ref: '#/$defs/block'}}}"],
        ]),
        want: ["AInput", "Block", "RichText", "BInput", "BInputBlock", "BInputRichText", "CInput"],
      },
    ],
    [
      "recursive entries are shared too",
      {
        given: manifest([
          [
            "a",
            "{type: object, $defs: {node: {type: object, properties: {children: {type: array, items: {$ref: '#/$defs/node'}}}}}, properties: {tree: {$ref: '#/$defs/node'}}}",
          ],
          [
            "b",
            "{type: object, $defs: {node: {type: object, properties: {children: {type: array, items: {$ref: '#/$defs/node'}}}}}, properties: {root: {$ref: '#/$defs/node'}}}",
          ],
        ]),
        want: ["AInput", "Node", "BInput"],
      },
    ],
    [
      "entries that refer to each other are shared together, or not at all when one of them differs",
      {
        given: manifest([
          [
            "a",
            "{type: object, $defs: {even: {type: object, properties: {next: {$ref: '#/$defs/odd'}}}, odd: {type: object, properties: {next: {$ref: '#/$defs/even'}}}}, properties: {n: {$ref: '#/$defs/even'}}}",
          ],
          [
            "b",
            "{type: object, $defs: {odd: {type: object, properties: {next: {$ref: '#/$defs/even'}}}, even: {type: object, properties: {next: {$ref: '#/$defs/odd'}}}}, properties: {n: {$ref: '#/$defs/odd'}}}",
          ],
          [
            "c",
            "{type: object, $defs: {even: {type: object, properties: {next: {$ref: '#/$defs/odd'}}}, odd: {type: object, properties: {next: {$ref: '#/$defs/even'}, last: {type: boolean}}}}, properties: {n: {$ref: '#/$defs/even'}}}",
          ],
        ]),
        want: ["AInput", "Even", "Odd", "BInput", "CInput", "CInputEven", "CInputOdd"],
      },
    ],
    [
      "an entry that reaches the root (`#`) through another entry is each tool's own, and so is that entry",
      {
        given: manifest([
          [
            "a",
            "{type: object, $defs: {outer: {items: {$ref: '#/$defs/inner'}}, inner: {properties: {up: {$ref: '#'}}}, leaf: {type: string}}, properties: {o: {$ref: '#/$defs/outer'}, l: {$ref: '#/$defs/leaf'}}}",
          ],
          [
            "b",
            "{type: object, $defs: {outer: {items: {$ref: '#/$defs/inner'}}, inner: {properties: {up: {$ref: '#'}}}, leaf: {type: string}}, properties: {o: {$ref: '#/$defs/outer'}, l: {$ref: '#/$defs/leaf'}}}",
          ],
        ]),
        want: ["AInput", "AInputOuter", "AInputInner", "Leaf", "BInput", "BInputOuter", "BInputInner"],
      },
    ],
    [
      "an entry that refers to the root (`#`) is each tool's own",
      {
        given: manifest([
          ["a", "{type: object, $defs: {wrap: {type: object, properties: {inner: {$ref: '#'}}}}, properties: {w: {$ref: '#/$defs/wrap'}}}"],
          ["b", "{type: object, $defs: {wrap: {type: object, properties: {inner: {$ref: '#'}}}}, properties: {w: {$ref: '#/$defs/wrap'}}}"],
        ]),
        want: ["AInput", "AInputWrap", "BInput", "BInputWrap"],
      },
    ],
    [
      "one ref spelled two ways is the same ref",
      {
        given: manifest([
          ["a", "{type: object, $defs: {'rich text': " + RICH + ", block: {$ref: '#/$defs/rich%20text'}}, properties: {b: {$ref: '#/$defs/block'}}}"],
          ["b", "{type: object, $defs: {'rich text': " + RICH + ", block: {$ref: '#/$defs/rich text'}}, properties: {b: {$ref: '#/$defs/block'}}}"],
        ]),
        want: ["AInput", "RichText", "Block", "BInput"],
      },
    ],
    [
      "$defs and definitions are different entries",
      {
        given: manifest([
          ["a", withRich(RICH)],
          ["b", `{type: object, definitions: {richText: ${RICH}}, properties: {title: {$ref: '#/definitions/richText'}}}`],
        ]),
        want: ["AInput", "AInputRichText", "BInput", "BInputRichText"],
      },
    ],
    [
      "a name taken by another type: the shared entry is named as the first tool's",
      {
        given: manifest(
          [
            ["a", withRich(RICH)],
            ["b", withRich(RICH)],
          ],
          "defs:\n  RichText: {type: string}\n",
        ),
        want: ["RichText", "AInput", "AInputRichText", "BInput"],
      },
    ],
    [
      "names of one tool's entries are claimed before shared names",
      {
        given: manifest([
          ["x", "{type: object, $defs: {y: {type: string}}, properties: {y: {$ref: '#/$defs/y'}}}"],
          ["p", "{type: object, $defs: {xInputY: {type: number}}, properties: {n: {$ref: '#/$defs/xInputY'}}}"],
          ["q", "{type: object, $defs: {xInputY: {type: number}}, properties: {n: {$ref: '#/$defs/xInputY'}}}"],
        ]),
        want: ["XInput", "XInputY", "PInput", "PInputXInputY", "QInput"],
      },
    ],
  ];
  it.each(cases)("%s", async (_name, { given, want }) => {
    expect(declared(await typesOf(given))).toEqual(want);
  });

  it("per-tool types refer to the shared type", async () => {
    const text = await typesOf(
      manifest([
        ["create", withRich(RICH)],
        ["update", withRich(RICH, "{type: array, items: {$ref: '#/$defs/richText'}}")],
      ]),
    );
    expect(text).toContain("export interface CreateInput {\n  title?: RichText;\n}\n");
    expect(text).toContain("export interface UpdateInput {\n  title?: RichText[];\n}\n");
    expect(text).toContain("export interface RichText {\n  text: string;\n  link?: string | null;\n}\n");
  });

  it("a tool's input and output share an entry", async () => {
    const yaml = `server: {name: s, version: '1'}\ntools:\n  - name: t\n    inputSchema: ${withRich(RICH)}\n    outputSchema: ${withRich(RICH)}\n`;
    expect(declared(await typesOf(yaml))).toEqual(["TInput", "RichText", "TOutput"]);
  });

  it("the wire schemas keep their $defs, used or not", async () => {
    const yaml = manifest([
      ["none", `{type: object, $defs: {richText: ${RICH}}}`],
      ["some", withRich(RICH)],
    ]);
    const model = await modelOf(yaml);
    expect(model.tools.map((t) => Object.keys((t.wire.inputSchema as { $defs: object }).$defs))).toEqual([["richText"], ["richText"]]);
    expect(model.tools.map((t) => [...t.input.localTypeNames])).toEqual([[], [["$defs/richText", "RichText"]]]);
    expect(model.tools.map((t) => t.input.declares)).toEqual([[], ["$defs/richText"]]);
  });

  it("generating twice gives the same text", async () => {
    const yaml = manifest([
      ["a", withRich(RICH)],
      ["b", withRich("{type: string}")],
      ["c", withRich(RICH)],
      ["d", withRich("{type: string}")],
    ]);
    expect(await typesOf(yaml)).toBe(await typesOf(yaml));
  });
});

describe("usedLocalDefs", () => {
  it("follows refs from the schema, then from entry to entry, and lists them in declaration order", () => {
    const schema = {
      type: "object",
      properties: { a: { anyOf: [{ $ref: "#/$defs/c" }, { type: "null" }] } },
      $defs: { a: { type: "string" }, b: { type: "string" }, c: { items: { $ref: "#/definitions/d" } }, e: { $ref: "#/$defs/a" } },
      definitions: { d: { $ref: "#/$defs/b" } },
    };
    expect(usedLocalDefs(schema).keys).toEqual(["$defs/b", "$defs/c", "definitions/d"]);
    expect(usedLocalDefs({ type: "object", $defs: { a: { type: "string" } } }).keys).toEqual([]);
    expect(usedLocalDefs(true).keys).toEqual([]);
  });

  it("does not take a $ref inside data (const, default, examples) for a use", () => {
    const schema = { type: "object", const: { $ref: "#/$defs/a" }, default: { $ref: "#/$defs/a" }, $defs: { a: { type: "string" } } };
    expect(usedLocalDefs(schema).keys).toEqual([]);
  });
});

describe("canonicalJson", () => {
  const cases: [string, { given: [unknown, unknown]; same: boolean }][] = [
    [
      "key order",
      {
        given: [
          { a: 1, b: { c: 2, d: 3 } },
          { b: { d: 3, c: 2 }, a: 1 },
        ],
        same: true,
      },
    ],
    ["array order counts", { given: [{ enum: [1, 2] }, { enum: [2, 1] }], same: false }],
    ["a key named __proto__", { given: [JSON.parse('{"__proto__": 1, "a": 2}'), JSON.parse('{"a": 2, "__proto__": 1}')], same: true }],
    ["a string and a number", { given: [{ a: "1" }, { a: 1 }], same: false }],
  ];
  it.each(cases)("%s", (_name, { given: [a, b], same }) => {
    expect(canonicalJson(a) === canonicalJson(b)).toBe(same);
  });
});
