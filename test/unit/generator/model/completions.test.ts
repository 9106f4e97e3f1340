/** model/completions.ts: the completion sources of prompt arguments and template variables. */
import { describe, expect, it } from "vitest";
import { buildCompletions } from "../../../../src/generator/model/completions.js";
import type { CompletionModel } from "../../../../src/generator/model/types.js";
import { contextOf } from "../../../helpers/model.js";

const SERVER = "server: {name: s, version: '1'}\n";

describe("completions", () => {
  const cases: [string, { given: string; want: CompletionModel[] }][] = [
    ["none", { given: "prompts:\n  - {name: p, arguments: [{name: a}]}\n", want: [] }],
    [
      "a prompt argument's values, and one a handler completes",
      {
        given: "prompts:\n  - {name: p, arguments: [{name: a, complete: [x, y]}, {name: b}, {name: c, complete: handler}]}\n",
        want: [
          { ref: "prompt", name: "p", argument: "a", values: ["x", "y"] },
          { ref: "prompt", name: "p", argument: "c", handler: true },
        ],
      },
    ],
    [
      "template variables, after the prompts whatever the manifest's order",
      {
        given:
          "resourceTemplates:\n  - {uriTemplate: 'a://{folder}/{id}', name: t, complete: {id: handler, folder: [inbox]}}\nprompts:\n  - {name: p, arguments: [{name: a, complete: [x]}]}\n",
        want: [
          { ref: "prompt", name: "p", argument: "a", values: ["x"] },
          { ref: "resourceTemplate", name: "t", argument: "id", handler: true },
          { ref: "resourceTemplate", name: "t", argument: "folder", values: ["inbox"] },
        ],
      },
    ],
  ];
  it.each(cases)("%s", async (_, { given, want }) => {
    const ctx = await contextOf(SERVER + given);
    expect(buildCompletions(ctx.manifest.value)).toEqual(want);
  });
});
