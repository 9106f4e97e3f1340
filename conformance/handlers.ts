/**
 * Handlers of manifests/conformance.yaml: what the official conformance suite calls, written
 * against the generated types like any user's handlers.
 */
import { RpcError, ToolError, type Handlers } from "../generated/mcp-conformance-test-server/index.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
const NAME_FORM = {
  message: "What is your name?",
  requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] },
};
const CONFIRM_FORM = {
  message: "Please confirm",
  requestedSchema: { type: "object" as const, properties: { ok: { type: "boolean" as const } }, required: ["ok"] },
};
const text = (result: { content?: unknown }) => {
  const block = Array.isArray(result.content) ? result.content[0] : result.content;
  return typeof block === "object" && block !== null && (block as { type?: unknown }).type === "text" ? String((block as { text: unknown }).text) : "";
};

export const handlers: Handlers = {
  tools: {
    test_simple_text: () => "This is a simple text response for testing.",
    test_image_content: () => ({ content: [{ type: "image", data: PNG, mimeType: "image/png" }] }),
    test_audio_content: () => ({ content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] }),
    test_embedded_resource: () => ({
      content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
    }),
    test_multiple_content_types: () => ({
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: PNG, mimeType: "image/png" },
        {
          type: "resource",
          resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) },
        },
      ],
    }),
    test_tool_with_logging: async (_args, ctx) => {
      await ctx.log("info", "Tool execution started");
      await sleep(50);
      await ctx.log("info", "Tool processing data");
      await sleep(50);
      await ctx.log("info", "Tool execution completed");
      return "Tool with logging executed successfully";
    },
    test_tool_with_progress: async (_args, ctx) => {
      for (const step of [0, 50, 100]) {
        await ctx.progress(step, 100, `Completed step ${step} of 100`);
        if (step < 100) await sleep(50);
      }
      const token = ctx.meta?.progressToken;
      return typeof token === "string" || typeof token === "number" ? String(token) : "0";
    },
    test_error_handling: () => {
      throw new ToolError("This tool intentionally returns an error for testing");
    },
    test_reconnection: async (_args, ctx) => {
      ctx.closeSSEStream();
      await sleep(100);
      return "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.";
    },
    test_sampling: async ({ prompt }, ctx) => {
      try {
        const result = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens: 100 });
        const content = result.content;
        return `LLM response: ${!Array.isArray(content) && content.type === "text" ? content.text : "No response"}`;
      } catch (error) {
        return `Sampling not supported or error: ${(error as Error).message}`;
      }
    },
    test_elicitation: async ({ message }, ctx) => {
      try {
        const result = await ctx.elicit({
          message,
          requestedSchema: { type: "object", properties: { response: { type: "string", description: "User's response" } }, required: ["response"] },
        });
        return `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      } catch (error) {
        return `Elicitation not supported or error: ${(error as Error).message}`;
      }
    },
    test_elicitation_sep1034_defaults: async (_args, ctx) => {
      const result = await ctx.elicit({
        message: "Please review and update the form fields with defaults",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
            verified: { type: "boolean", description: "Verification status", default: true },
          },
          required: [],
        },
      });
      return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
    },
    test_elicitation_sep1330_enums: async (_args, ctx) => {
      const result = await ctx.elicit({
        message: "Please select options from the enum fields",
        requestedSchema: {
          type: "object",
          properties: {
            untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
            titledSingle: {
              type: "string",
              description: "Select one option with titles",
              oneOf: [
                { const: "value1", title: "First Option" },
                { const: "value2", title: "Second Option" },
                { const: "value3", title: "Third Option" },
              ],
            },
            legacyEnum: {
              type: "string",
              description: "Select one option (legacy)",
              enum: ["opt1", "opt2", "opt3"],
              enumNames: ["Option One", "Option Two", "Option Three"],
            },
            untitledMulti: {
              type: "array",
              description: "Select multiple options",
              minItems: 1,
              maxItems: 3,
              items: { type: "string", enum: ["option1", "option2", "option3"] },
            },
            titledMulti: {
              type: "array",
              description: "Select multiple options with titles",
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: "value1", title: "First Choice" },
                  { const: "value2", title: "Second Choice" },
                  { const: "value3", title: "Third Choice" },
                ],
              },
            },
          },
          required: [],
        },
      });
      return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
    },
    json_schema_2020_12_tool: (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,

    // Multi round-trip (2026-07-28): on 2025-era connections the same calls are real requests.
    test_input_required_result_elicitation: async (_args, ctx) => {
      const answer = await ctx.elicit(NAME_FORM, { key: "user_name" });
      return `Hello, ${String(answer.content?.name ?? "stranger")}!`;
    },
    test_input_required_result_sampling: async (_args, ctx) => {
      const answer = await ctx.sample(
        { messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }], maxTokens: 100 },
        { key: "capital_question" },
      );
      return `The model said: ${text(answer)}`;
    },
    test_input_required_result_list_roots: async (_args, ctx) => {
      const { roots } = await ctx.listRoots({ key: "client_roots" });
      return `Roots: ${roots.map((r) => r.uri).join(", ")}`;
    },
    test_input_required_result_request_state: async (_args, ctx) => {
      const answer = await ctx.elicit(CONFIRM_FORM, { key: "confirm" });
      // The answer reached this run through the signed requestState and this retry's inputResponses.
      return `state-ok: confirmed=${String(answer.content?.ok)}`;
    },
    test_input_required_result_multiple_inputs: async (_args, ctx) => {
      const [name, greeting, roots] = await Promise.all([
        ctx.elicit(NAME_FORM, { key: "user_name" }),
        ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 }, { key: "greeting" }),
        ctx.listRoots({ key: "client_roots" }),
      ]);
      return `${text(greeting)} ${String(name.content?.name)} (${roots.roots.length} roots)`;
    },
    test_input_required_result_multi_round: async (_args, ctx) => {
      const first = await ctx.elicit(NAME_FORM, { key: "step1" });
      const second = await ctx.elicit(
        { message: "What is your favorite color?", requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] } },
        { key: "step2" },
      );
      return `${String(first.content?.name)} likes ${String(second.content?.color)}`;
    },
    test_input_required_result_tampered_state: async (_args, ctx) => {
      const answer = await ctx.elicit(CONFIRM_FORM, { key: "confirm" });
      return `confirmed=${String(answer.content?.ok)}`;
    },
    test_input_required_result_capabilities: async (_args, ctx) => {
      // Ask only for what the client can answer: elicitation when it has it, else sampling.
      if (ctx.clientCapabilities.elicitation) return `Hello, ${String((await ctx.elicit(NAME_FORM, { key: "user_name" })).content?.name)}!`;
      const answer = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Say hello" } }], maxTokens: 20 }, { key: "hello" });
      return text(answer);
    },
    // Uncaught, the missing capability answers -32021 (HTTP 400) on 2026-07-28.
    test_missing_capability: async (_args, ctx) =>
      text(await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 })),
    test_streaming_elicitation: async (_args, ctx) => `Got: ${JSON.stringify((await ctx.elicit(NAME_FORM)).content ?? {})}`,
    test_logging_tool: async (_args, ctx) => {
      await ctx.log("info", "test_logging_tool ran");
      return "logged";
    },
    test_x_mcp_header: ({ region, level }) => `region=${region ?? ""} level=${level ?? 0}`,

    // Tasks. A handler decides when its call becomes a task (ctx.startTask); input asked before
    // that point is multi round-trip, input asked after it waits in tasks/get for tasks/update.
    greet: ({ name }) => `Hello, ${name ?? "World"}!`,
    slow_compute: async ({ seconds, label }, ctx) => {
      await ctx.startTask();
      await sleep((seconds ?? 0) * 1000, ctx.signal);
      return `Computed ${label ?? "result"} after ${seconds ?? 0}s`;
    },
    failing_job: async (_args, ctx) => {
      await ctx.startTask();
      await sleep(300, ctx.signal);
      throw new ToolError("The job failed (a tool error)");
    },
    protocol_error_job: async (_args, ctx) => {
      await ctx.startTask();
      await sleep(100, ctx.signal);
      throw new RpcError(-32603, "Internal error: the job crashed");
    },
    confirm_delete: async ({ filename }, ctx) => {
      await ctx.startTask();
      const answer = await ctx.elicit({
        message: `Delete ${filename ?? "the file"}?`,
        requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
      });
      return answer.action === "accept" && answer.content?.confirm === true ? `Deleted ${filename ?? "the file"}` : "Kept the file";
    },
    multi_input: async (_args, ctx) => {
      await ctx.startTask();
      const form = { type: "object" as const, properties: { name: { type: "string" as const }, confirm: { type: "boolean" as const } } };
      const answers = await Promise.all([
        ctx.elicit({ message: "First question", requestedSchema: form }),
        ctx.elicit({ message: "Second question", requestedSchema: form }),
      ]);
      return `Answers: ${answers.map((a) => JSON.stringify(a.content ?? {})).join(", ")}`;
    },
    test_tool_with_task: async (_args, ctx) => {
      const answer = await ctx.elicit(NAME_FORM, { key: "user_name" });
      await ctx.startTask();
      await sleep(100, ctx.signal);
      return `Hello, ${String(answer.content?.name)}! (from a task)`;
    },
  },
  resources: {
    "watched-resource": () => "Watched resource content",
  },
  prompts: {
    test_input_required_result_prompt: async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: "What context should the prompt use?",
          requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
        },
        { key: "user_context" },
      );
      return { messages: [{ role: "user", content: { type: "text", text: `Write with this context: ${String(answer.content?.context)}` } }] };
    },
  },
  resourceTemplates: {
    template: ({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  },
  completions: {
    prompts: {
      test_prompt_with_arguments: {
        arg2: (value) => ["testValue2", "other"].filter((v) => v.startsWith(value)),
      },
    },
  },
};
