/** docs/reference/check-rules.md, from the rules table of `mcpgen check` (src/commands/check/rules/table.ts). */
import { RULE_IDS, RULES } from "../../commands/check/rules/table.js";
import { block, code, generatedNote, table } from "./markdown.js";

export function checkRulesPage(): string {
  const out = [
    generatedNote(["src/commands/check/rules/table.ts"]),
    "# `mcpgen check` rules",
    [
      "Each finding of `mcpgen check` names its rule, at the line of the log where the message is (in a HAR, where its entry starts), with the message's JSON-RPC id and the fix.",
      "The same table gives SARIF's `tool.driver.rules`, the names of JUnit's test cases, and `mcpgen explain RULE`. See [the traffic guide](../guides/traffic.md#checking-mcpgen-check) for the inputs and formats.",
    ].join(" "),
    block(
      [
        "run.jsonl:12:1: error misnamed-param: tools/call params has `tool` where MCP names it `name` (id 3) — fix: rename `tool` to `name`: tools/call takes {name, arguments}",
        "run.jsonl: 1 error, 0 warnings in 24 messages (mcpgen)",
      ].join("\n"),
    ),
    "Names of tools, resources and prompts are judged against the manifests given with `--manifests`, else against the server's own list answers in the log (once a list's last page is seen).",
    "## Rules",
    table(
      ["rule", "severity", "title", "finds", "fix"],
      RULE_IDS.map((id) => [code(id), RULES[id].severity, RULES[id].title, RULES[id].description, RULES[id].fix]),
    ),
  ];
  return `${out.join("\n\n")}\n`;
}
