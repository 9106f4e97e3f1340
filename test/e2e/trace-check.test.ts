/**
 * The recorder and the checker together, on a server mcpgen generated: the official SDK v2 Client
 * uses the conformance server (generated/mcp-conformance-test-server with conformance/handlers.ts,
 * over Streamable HTTP) through `mcpgen trace --http`, in both protocol eras, as a well-behaved
 * client does; `mcpgen check` of that trace finds nothing, with the manifest or without it, and
 * `mcpgen explain` pairs every request with its reply. One deliberate mistake (an unknown tool)
 * is then the only finding. The SDK v2 Client on 2026-07-28 answering the server's questions
 * (input_required, retried with its answers, over several rounds) checks clean too.
 */
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { serveHttp } from "../../generated/mcp-conformance-test-server/serve.js";
import { handlers } from "../../conformance/handlers.js";
import { mcpgenAsync, ROOT } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";
import { readTrace, startHttpTrace } from "../helpers/trace.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TOOLS = [
  "test_simple_text",
  "test_image_content",
  "test_audio_content",
  "test_embedded_resource",
  "test_multiple_content_types",
  "test_tool_with_logging",
  "test_tool_with_progress",
  "test_error_handling",
];

/** A client that does everything right: lists, calls, reads and gets with valid arguments. */
async function wellBehaved(url: string, mode: "legacy" | "auto", mistake: boolean): Promise<void> {
  const sdk = new Client({ name: "trace-check", version: "1" }, { versionNegotiation: { mode } });
  await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));
  await sdk.listTools();
  for (const name of TOOLS) await sdk.callTool({ name, arguments: {} });
  await sdk.callTool({ name: "greet", arguments: { name: "Ada" } });
  await sdk.listResources();
  await sdk.listResourceTemplates();
  await sdk.readResource({ uri: "test://static-text" });
  await sdk.readResource({ uri: "test://static-binary" });
  await sdk.readResource({ uri: "test://template/123/data" });
  await sdk.listPrompts();
  await sdk.getPrompt({ name: "test_simple_prompt" });
  await sdk.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } });
  await sdk.getPrompt({ name: "test_prompt_with_image" });
  if (mistake) await sdk.callTool({ name: "test_simple_txt", arguments: {} }).catch(() => undefined);
  await sdk.close();
}

describe.each(["legacy", "auto"] as const)("a trace of the conformance server (%s client)", (mode) => {
  it("checks clean with and without the manifest; explain answers every request; a mistake is the only finding", async () => {
    const server = await serveHttp(handlers, { port: 0 });
    cleanups.push(server.close);
    const dir = tempProject();
    const file = path.join(dir, "run.jsonl");
    const proxy = await startHttpTrace(server.url, file);
    cleanups.push(proxy.stop);
    await wellBehaved(proxy.url, mode, false);
    expect(await proxy.stop()).toBe(0);
    const trace = readTrace(file);
    expect(trace.messages.length).toBeGreaterThan(30);

    const manifest = path.join(ROOT, "manifests/conformance.yaml");
    for (const args of [[file], [file, "--manifests", manifest]]) {
      const checked = await mcpgenAsync(["check", ...args, "--fail-on", "warning"], dir);
      expect(checked.stdout + checked.stderr).toMatch(/: no problems in \d+ messages/);
      expect(checked.code).toBe(0);
    }
    const explained = await mcpgenAsync(["explain", file], dir);
    expect(explained.code).toBe(0);
    const requests = explained.stdout.split("\n").filter((l) => /client → server {2}request #/.test(l));
    const replies = explained.stdout.split("\n").filter((l) => /server → client {2}reply to #/.test(l));
    expect(requests.length).toBeGreaterThan(15);
    expect(replies.length).toBe(requests.length);

    const withMistake = path.join(dir, "mistake.jsonl");
    const again = await startHttpTrace(server.url, withMistake);
    cleanups.push(again.stop);
    await wellBehaved(again.url, mode, true);
    await again.stop();
    const checked = await mcpgenAsync(["check", withMistake, "--manifests", manifest], dir);
    expect(checked.code).toBe(1);
    const findings = (checked.stdout + checked.stderr).split("\n").filter((l) => /: (error|warning) /.test(l));
    expect(findings).toEqual([
      expect.stringMatching(/mistake\.jsonl:\d+:1: error unknown-tool: tools\/call of unknown tool "test_simple_txt" \(did you mean `test_simple_text`\?\)/),
    ]);
  }, 60_000);
});

describe("a trace of questions the server asks (SDK v2 Client on 2026-07-28)", () => {
  it("input_required answered and retried, one question or several, over rounds: checks clean", async () => {
    const server = await serveHttp(handlers, { port: 0 });
    cleanups.push(server.close);
    const dir = tempProject();
    const file = path.join(dir, "questions.jsonl");
    const proxy = await startHttpTrace(server.url, file);
    cleanups.push(proxy.stop);
    const sdk = new Client(
      { name: "trace-check-questions", version: "1" },
      { capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    // The SDK Client answers each question with its handlers and sends the retry itself.
    sdk.setRequestHandler("elicitation/create", async (request) => {
      const schema = (request.params as { requestedSchema?: { properties?: Record<string, unknown> } }).requestedSchema;
      return { action: "accept", content: Object.fromEntries(Object.keys(schema?.properties ?? {}).map((key) => [key, "Ada"])) };
    });
    sdk.setRequestHandler("sampling/createMessage", async () => ({
      role: "assistant",
      content: { type: "text", text: "42" },
      model: "m",
      stopReason: "endTurn",
    }));
    sdk.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///tmp", name: "tmp" }] }));
    await sdk.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
    const texts: string[] = [];
    for (const name of ["elicitation", "sampling", "list_roots", "multiple_inputs", "multi_round"]) {
      const result = await sdk.callTool({ name: `test_input_required_result_${name}`, arguments: {} });
      texts.push((result.content as { text: string }[])[0]!.text);
    }
    expect(texts).toEqual(["Hello, Ada!", "The model said: 42", "Roots: file:///tmp", "42 Ada (1 roots)", "Ada likes Ada"]);
    await sdk.close();
    expect(await proxy.stop()).toBe(0);
    // Each call went twice at least (the question, then the retry with the answer).
    const trace = readTrace(file);
    const results = trace.messages.flatMap((m) => (m.from === "server" ? [(m.message as { result?: { resultType?: string } }).result?.resultType] : []));
    expect(results.filter((r) => r === "input_required").length).toBeGreaterThanOrEqual(6);
    for (const args of [[file], [file, "--manifests", path.join(ROOT, "manifests/conformance.yaml")]]) {
      const checked = await mcpgenAsync(["check", ...args, "--fail-on", "warning"], dir);
      expect(checked.stdout + checked.stderr).toMatch(/: no problems in \d+ messages/);
      expect(checked.code).toBe(0);
    }
  }, 60_000);
});
