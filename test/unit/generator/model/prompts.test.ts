/** model/prompts.ts: prompts, from small manifests. */
import { describe, expect, it } from "vitest";
import { buildPrompts } from "../../../../src/generator/model/prompts.js";
import type { PromptModel } from "../../../../src/generator/model/types.js";
import { buildOf, contextOf } from "../../../helpers/model.js";

const SERVER = "server: {name: s, version: '1'}\n";

async function promptsOf(...prompts: string[]): Promise<PromptModel[]> {
  const ctx = await contextOf(`${SERVER}prompts:\n${prompts.map((p) => `  - ${p}\n`).join("")}`);
  const built = buildPrompts(ctx);
  expect(ctx.diagnostics).toEqual([]);
  return built;
}

describe("a prompt", () => {
  const cases: [string, { given: string; want: Omit<PromptModel, "name" | "description"> }][] = [
    [
      "with messages: served from the manifest, `complete` off the wire",
      {
        given:
          "{name: greet, arguments: [{name: who, required: true, complete: [ann, bob]}, {name: tone, description: How}], messages: [{role: user, content: {type: text, text: 'Hi {{who}}'}}]}",
        want: {
          wire: {
            name: "greet",
            arguments: [
              { name: "who", required: true },
              { name: "tone", description: "How" },
            ],
          },
          arguments: [
            { name: "who", required: true },
            { name: "tone", required: false, description: "How" },
          ],
          argumentsTypeName: "GreetArguments",
          messages: [{ role: "user", content: { type: "text", text: "Hi {{who}}" } }],
          needsHandler: false,
          handlerName: "greet",
        },
      },
    ],
    [
      "without messages: a handler builds them",
      {
        given: "{name: summarize-notes, title: Summary}",
        want: {
          wire: { name: "summarize-notes", title: "Summary" },
          arguments: [],
          argumentsTypeName: "SummarizeNotesArguments",
          needsHandler: true,
          handlerName: "summarizeNotes",
        },
      },
    ],
  ];
  it.each(cases)("%s", async (_, { given, want }) => {
    const [prompt] = await promptsOf(given);
    const { name: _n, description: _d, ...rest } = prompt!;
    expect(rest).toEqual(want);
  });

  it("reports a prompt whose arguments type a def already has, naming the def's line", async () => {
    const clash = await buildOf(`${SERVER}defs:\n  GreetArguments: {type: object}\nprompts:\n  - {name: greet}\n`);
    expect(clash.diagnostics).toEqual([
      'm.yaml:5:12: error identifier-collision: prompt "greet" (its arguments type) and def "GreetArguments" (line 3) both become the TypeScript type name GreetArguments; rename one of them',
    ]);
  });
});
