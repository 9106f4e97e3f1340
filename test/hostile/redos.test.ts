/**
 * ReDoS through a schema `pattern`: `^(a+)+$` against "aaaa…!" takes exponential time in a
 * backtracking engine. The generated server checks arguments, and the generated client checks a
 * hostile server's output, in linear time: each answers at once and the next request is served.
 */
import { afterEach, describe, expect, it } from "vitest";
import { definitionValue } from "../../src/emit/definition.js";
import { ManifestClient } from "../../src/runtime/client/client.js";
import type { ServerDefinition } from "../../src/runtime/shared/definition.js";
import { OutputValidationError } from "../../src/runtime/shared/errors.js";
import { createManifestServerFactory } from "../../src/runtime/server/server.js";
import { connectInMemory, ERAS } from "../helpers/connect.js";
import { modelOf } from "../helpers/model.js";

const MANIFEST = `
server: {name: redos, version: 1.0.0}
tools:
  - name: word
    inputSchema:
      type: object
      properties:
        word: {type: string, pattern: "^(a+)+$"}
        tags: {type: array, items: {type: string, pattern: "^(\\\\w+\\\\s?)*$"}}
      patternProperties:
        "^(b+)+$": {type: number}
  - name: shout
    inputSchema: {type: object}
    outputSchema:
      type: object
      properties: {text: {type: string, pattern: "^(a|a)*$"}}
      required: [text]
`;

/** Tens of seconds to ages for a backtracking engine; one call each here. */
const EVIL_A = "a".repeat(5000) + "!";
const EVIL_B = "b".repeat(5000) + "!";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function definition(): Promise<ServerDefinition> {
  return definitionValue(await modelOf(MANIFEST)) as unknown as ServerDefinition;
}

describe("patterns run in linear time", () => {
  it("the definition carries a linear-time plan for every pattern of the tools' schemas", async () => {
    const def = await definition();
    expect(Object.keys(def.patterns ?? {}).sort()).toEqual(["^(a+)+$", "^(a|a)*$", "^(b+)+$", "^(\\w+\\s?)*$"].sort());
    for (const plan of Object.values(def.patterns ?? {})) expect(plan).not.toHaveProperty("unchecked");
  });

  for (const era of ERAS) {
    it(`${era}: a hostile argument is refused at once and the server keeps serving`, async () => {
      const def = await definition();
      const factory = createManifestServerFactory(def, { tools: { word: () => "ok", shout: () => ({ text: "aaa" }) } } as never, { onError: () => {} });
      const { sdk, close } = await connectInMemory(factory, { era });
      closers.push(close);
      const refused = await sdk.callTool({ name: "word", arguments: { word: EVIL_A, tags: ["word ".repeat(2000) + "!"] } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain("Property 'word' must match pattern");
      expect(JSON.stringify(refused.content)).toContain("Property 'tags[0]' must match pattern");
      // A key tested against patternProperties is matched in linear time too (it does not match: no constraint).
      expect((await sdk.callTool({ name: "word", arguments: { [EVIL_B]: "not a number" } })).isError).toBeFalsy();
      expect((await sdk.callTool({ name: "word", arguments: { bbb: "not a number" } })).isError).toBe(true);
      expect(await sdk.callTool({ name: "word", arguments: { word: "aaaa" } })).toMatchObject({ content: [{ type: "text", text: "ok" }] });
      expect((await sdk.listTools()).tools).toHaveLength(2);
    });
  }

  it("the generated client refuses a hostile server's output at once", async () => {
    const def = await definition();
    // The server's own definition of `shout` has no outputSchema: it sends whatever the handler returns.
    const { outputSchema: _, ...bare } = def.tools[1]!;
    const serverDef: ServerDefinition = { ...def, tools: [def.tools[0]!, bare] };
    const factory = createManifestServerFactory(serverDef, {
      tools: { word: () => "ok", shout: () => ({ content: [{ type: "text", text: "x" }], structuredContent: { text: EVIL_A } }) },
    } as never);
    for (const era of ERAS) {
      const { sdk, close } = await connectInMemory(factory, { era });
      closers.push(close);
      const client = new ManifestClient(sdk, def);
      const error = await client.callToolOutput("shout", {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutputValidationError);
      expect(String((error as Error).message)).toContain("must match pattern");
    }
  });
});
