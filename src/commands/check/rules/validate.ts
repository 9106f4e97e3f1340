/**
 * Values against the schemas the server serves, with the validators of mcpgen's generated servers
 * (packages/runtime/src/shared/validation.ts): no second JSON Schema implementation.
 */
import type { ErrorObject } from "ajv";
import { runValidator } from "@mcpgen/runtime/codegen";
import type { RuleContext } from "./context.js";

/** Schemas ajv could not compile: not tried again. */
const BROKEN = new WeakSet<object>();

/**
 * `value`'s problems against `schema` in words, then where each is (JSON Pointer) and its keyword;
 * undefined when it is valid, or when the schema itself cannot be compiled (a broken schema the
 * server serves is no fault of the message).
 */
export function problemsOf(ctx: RuleContext, schema: unknown, value: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null || BROKEN.has(schema)) return undefined;
  let fn;
  try {
    fn = ctx.validators.validator(schema);
  } catch {
    BROKEN.add(schema);
    return undefined;
  }
  const problem = runValidator(fn, value);
  return problem === undefined ? undefined : `${problem}${pointers(fn.errors)}`;
}

/** ` (at /budget: type; at /: required)`: where each problem is, as a JSON Pointer, and its keyword. */
function pointers(errors: readonly ErrorObject[] | null | undefined): string {
  const list = [...new Set((errors ?? []).filter((e) => e.keyword !== "if").map((e) => `${e.instancePath || "/"}: ${e.keyword}`))];
  return list.length ? ` (at ${list.slice(0, 5).join("; ")})` : "";
}
