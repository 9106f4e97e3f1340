/**
 * What the mock answers: handlers for every tool, resource, template, prompt and completion of a
 * definition, in the runtime's RuntimeHandlers shape, so the server around them is the generated
 * servers' own (arguments checked by its validators, outputs by its output check, the same errors).
 *
 * A tool answers the result of its first example whose arguments equal the call's, else a value
 * generated from its outputSchema (seeded by the seed, the tool and the arguments), checked with
 * the same validators the server uses, else the schema's own examples, default or const, else the
 * smallest value the schema allows; failing all of those, a tool error that says so.
 */
import type { JsonObject, ServerDefinition, WireTool } from "@mcpgen/runtime/shared";
import type { SchemaValidators } from "@mcpgen/runtime/codegen";
import { ToolError } from "@mcpgen/runtime/shared";
import type { ReadResourceResult } from "@mcpgen/runtime/shared";
import { fillPlaceholders } from "@mcpgen/runtime/codegen";
import type { AnyFunction, RuntimeHandlers } from "@mcpgen/runtime/codegen";
import { Random, stableJson } from "./random.js";
import { DEFAULT_LIMITS, generateValue, MINIMAL_LIMITS, Unmockable, type ValueLimits } from "./values.js";

/** How the mock answers. */
export interface MockSettings {
  /** Seed of every generated value and of --fail-rate (default 1). */
  seed: number;
  /** Milliseconds each tools/call, resources/read, prompts/get and completion/complete waits before it answers. */
  latencyMs: number;
  /** Fraction of tool calls (0..1) answered with a mocked tool error, drawn from the seed. */
  failRate: number;
  limits: ValueLimits;
}

export const DEFAULT_SETTINGS: MockSettings = { seed: 1, latencyMs: 0, failRate: 0, limits: DEFAULT_LIMITS };

/** A tool example as the model keeps it. */
export interface ToolExample {
  arguments: unknown;
  result?: unknown;
}

/** Generated values tried before the fallbacks. */
const ATTEMPTS = 12;

/** A structured output for a tool's outputSchema, or why none could be made. */
export type MockOutput = { value: JsonObject; from: "generated" | "schema example" | "default" | "const" | "smaller value" } | { unmockable: string };

/**
 * A structured output that the validators accept for the tool's outputSchema: generated for this
 * seed and these arguments, else a fallback. Deterministic: the same inputs, the same value.
 */
export function mockOutput(tool: WireTool, args: unknown, settings: MockSettings, validators: SchemaValidators): MockOutput {
  const schema = tool.outputSchema;
  if (schema === undefined) return { unmockable: `tool ${tool.name} has no outputSchema` };
  const valid = (value: unknown): value is JsonObject => isObject(value) && validators.check(schema, value) === undefined;
  const key = stableJson(args);
  let why = "";
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      const value = generateValue(schema, new Random(settings.seed, "tools/call", tool.name, key, attempt), settings.limits);
      if (valid(value)) return { value, from: "generated" };
      why = isObject(value) ? (validators.check(schema, value) ?? "") : "Output must be an object";
    } catch (error) {
      if (!(error instanceof Unmockable)) throw error;
      why = error.message;
    }
  }
  const fallbacks: [unknown, "schema example" | "default" | "const"][] = [
    ...(Array.isArray(schema["examples"]) ? schema["examples"].map((e): [unknown, "schema example"] => [e, "schema example"]) : []),
    [schema["default"], "default"],
    [schema["const"], "const"],
  ];
  for (const [value, from] of fallbacks) if (valid(value)) return { value, from };
  try {
    const smaller = generateValue(schema, new Random(settings.seed, "tools/call", tool.name, key, "minimal"), MINIMAL_LIMITS);
    if (valid(smaller)) return { value: smaller, from: "smaller value" };
  } catch (error) {
    if (!(error instanceof Unmockable)) throw error;
  }
  return { unmockable: why || "no generated value matched it" };
}

/**
 * The result of a tool example given as `result` for a tool without outputSchema: text, a
 * CallToolResult as written (the server checks it as it checks a handler's), or JSON text.
 */
function textResult(result: unknown): unknown {
  if (typeof result === "string") return result;
  if (isObject(result) && Array.isArray(result["content"])) return result;
  return JSON.stringify(result);
}

/**
 * The mock's handlers for `definition`: every tool, resource without content in the definition,
 * template, prompt without messages and completion handler it names. `examples`: each tool's, by name.
 */
export function mockHandlers(
  definition: ServerDefinition,
  examples: ReadonlyMap<string, readonly ToolExample[]>,
  settings: MockSettings,
  validators: SchemaValidators,
): RuntimeHandlers {
  const failures = new Random(settings.seed, "fail-rate");
  const wait = <F extends AnyFunction>(fn: F): F => (settings.latencyMs > 0 ? (delayed(fn, settings.latencyMs) as F) : fn);

  const tools: Record<string, AnyFunction> = {};
  for (const tool of definition.tools) {
    const own = examples.get(tool.name) ?? [];
    define(
      tools,
      tool.name,
      wait((args: JsonObject) => {
        // Drawn for every call, so the n-th call fails or not whatever its arguments.
        if (settings.failRate > 0 && failures.next() < settings.failRate)
          throw new ToolError(`Mocked failure of tool ${tool.name} (mcpgen mock --fail-rate ${settings.failRate})`);
        const example = own.find((e) => e.result !== undefined && stableJson(e.arguments) === stableJson(args));
        if (example) return tool.outputSchema === undefined ? textResult(example.result) : example.result;
        if (tool.outputSchema === undefined) return `Mocked result of ${tool.name} for ${stableJson(args)}`;
        const output = mockOutput(tool, args, settings, validators);
        if ("value" in output) return output.value;
        throw new ToolError(`mcpgen mock cannot make an output of tool ${tool.name} that matches its outputSchema: ${output.unmockable}`);
      }),
    );
  }

  const resources: Record<string, AnyFunction> = {};
  for (const { resource, content } of definition.resources) {
    const mime = resource.mimeType === undefined ? {} : { mimeType: resource.mimeType };
    const answer: ReadResourceResult = {
      contents: [
        content
          ? { uri: resource.uri, ...mime, ...content }
          : { uri: resource.uri, ...mime, text: mockText(resource.name, resource.uri, resource.mimeType, {}) },
      ],
    };
    define(
      resources,
      resource.name,
      wait(() => answer),
    );
  }

  const resourceTemplates: Record<string, AnyFunction> = {};
  for (const template of definition.resourceTemplates) {
    define(
      resourceTemplates,
      template.name,
      wait((variables: Record<string, string>, ctx: { uri: string }) => mockText(template.name, ctx.uri, template.mimeType, variables)),
    );
  }

  const prompts: Record<string, AnyFunction> = {};
  for (const { prompt, messages } of definition.prompts) {
    define(
      prompts,
      prompt.name,
      // The result goes through the server's GetPromptResult check, as a handler's does.
      wait((args: Record<string, string>) => {
        const description = typeof prompt["description"] === "string" ? { description: prompt["description"] } : {};
        const filled = messages
          ? messages.map((m) => fillPlaceholders(m, args))
          : [{ role: "user", content: { type: "text", text: `Mocked prompt ${prompt.name}${Object.keys(args).length ? ` with ${stableJson(args)}` : ""}` } }];
        return { ...description, messages: filled };
      }),
    );
  }

  const completions: NonNullable<RuntimeHandlers["completions"]> = { prompts: {}, resourceTemplates: {} };
  for (const entry of definition.completions ?? []) {
    if (!entry.handler) continue;
    const group = entry.ref === "prompt" ? completions.prompts! : completions.resourceTemplates!;
    if (!Object.hasOwn(group, entry.name)) define(group, entry.name, {});
    define(
      group[entry.name]!,
      entry.argument,
      wait((value: string) => ["alpha", "bravo", "charlie"].map((word) => `${value}${word}`)),
    );
  }
  return { tools, resources, resourceTemplates, prompts, completions };
}

/** The definition the mock serves: no token asked for, and every read and prompt answered by a mock handler (so each one waits --latency). */
export function mockDefinition(definition: ServerDefinition): ServerDefinition {
  const { auth: _auth, ...rest } = definition;
  return {
    ...rest,
    resources: definition.resources.map(({ resource }) => ({ resource })),
    prompts: definition.prompts.map(({ prompt }) => ({ prompt })),
  };
}

/** Text for a resource or template read without content: names what was read, in the resource's type. */
function mockText(name: string, uri: string, mimeType: string | undefined, variables: Record<string, string>): string {
  const mocked = { uri, name, ...(Object.keys(variables).length ? { variables } : {}), mocked: true };
  if (mimeType !== undefined && /[/+]json\b/.test(mimeType)) return JSON.stringify(mocked, null, 2);
  if (mimeType !== undefined && mimeType.startsWith("text/html"))
    return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(name)}</title><p>Mocked ${escapeHtml(uri)}</p>`;
  const vars = Object.entries(variables).map(([k, v]) => `${k}=${v}`);
  return `Mocked content of ${name} (${uri})${vars.length ? ` with ${vars.join(", ")}` : ""}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function delayed(fn: AnyFunction, ms: number): AnyFunction {
  return async (...args: never[]) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return fn(...args);
  };
}

/** An own, enumerable entry: names come from the manifest (`__proto__` is a valid tool name). */
function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
