/**
 * Handlers of manifests/conformance.yaml: what the official conformance suite calls, written
 * against the generated types like any user's handlers.
 */
import { ToolError, type Handlers } from "../generated/mcp-conformance-test-server/index.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
        { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) } },
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
      return String(ctx.meta?.progressToken ?? 0);
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
            legacyEnum: { type: "string", description: "Select one option (legacy)", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
            untitledMulti: { type: "array", description: "Select multiple options", minItems: 1, maxItems: 3, items: { type: "string", enum: ["option1", "option2", "option3"] } },
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
  },
  resources: {
    "watched-resource": () => "Watched resource content",
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
