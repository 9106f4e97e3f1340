/**
 * Every message against MCP's own JSON Schema for its revision (the specification's published
 * schema.json of 2025-11-25 and 2026-07-28, vendored in vendor/mcp-spec/): a request or
 * notification against its method's definition (`CallToolRequest`), a result against the result
 * its request names (`CallToolResult`, `InputRequiredResult` for an "ask me first" answer). Shapes
 * are the specification's word; the hand-written rules keep what a schema cannot say.
 *
 * A message whose revision is not known (a log without `initialize`, no `_meta` or header naming
 * one) passes when either revision's schema accepts it. Revisions before 2025-11-25, and methods a
 * revision's schema does not define (the tasks extension of 2026-07-28), are not judged here.
 */
import { readFileSync } from "node:fs";
import { ajvValidators, runValidator } from "@mcpgen/runtime/codegen";
import { isRecord } from "../model.js";
import type { Paired } from "../pair/pairer.js";
import type { RuleContext } from "./context.js";

const SPEC_REVISIONS = ["2025-11-25", "2026-07-28"] as const;
type SpecRevision = (typeof SPEC_REVISIONS)[number];

/** One revision's schema: its definitions, and the definition of each method's request, notification and result. */
interface RevisionSchema {
  revision: SpecRevision;
  defs: Record<string, unknown>;
  requests: Map<string, string>;
  notifications: Map<string, string>;
  results: Map<string, string>;
  /** Per definition name, the schema compiled against (one object each, so validators are compiled once). */
  roots: Map<string, object>;
}

const loaded = new Map<SpecRevision, RevisionSchema>();

function schemaOf(revision: SpecRevision): RevisionSchema {
  let found = loaded.get(revision);
  if (found) return found;
  const file = new URL(`../../../../vendor/mcp-spec/${revision}/schema.json`, import.meta.url);
  const defs = (JSON.parse(readFileSync(file, "utf8")) as { $defs: Record<string, unknown> }).$defs;
  const requests = new Map<string, string>();
  const notifications = new Map<string, string>();
  const results = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    // The unions (ClientRequest, ServerNotification...) are not a method's own definition.
    if (name.startsWith("Client") || name.startsWith("Server") || !isRecord(def) || !isRecord(def["properties"])) continue;
    const method = isRecord(def["properties"]["method"]) ? def["properties"]["method"]["const"] : undefined;
    if (typeof method !== "string") continue;
    if (name.endsWith("Notification") && !notifications.has(method)) notifications.set(method, name);
    else if (name.endsWith("Request") && !requests.has(method)) {
      requests.set(method, name);
      const result = name.replace(/Request$/, "Result");
      results.set(method, Object.hasOwn(defs, result) ? result : "EmptyResult");
    }
  }
  found = { revision, defs, requests, notifications, results, roots: new Map() };
  loaded.set(revision, found);
  return found;
}

/** The schema to validate against for a definition: a root that refers to it, with every definition beside. */
function rootOf(schema: RevisionSchema, name: string): object {
  let root = schema.roots.get(name);
  if (!root) {
    root = { $schema: "https://json-schema.org/draft/2020-12/schema", $ref: `#/$defs/${name}`, $defs: schema.defs };
    schema.roots.set(name, root);
  }
  return root;
}

/** The specification's validators: no pattern plans (its schemas have no pattern), formats not asserted, as the generated servers do. */
const validators = ajvValidators();

/** What is wrong with `value` as the definition `name`, in words; undefined when it fits. */
function problemAs(schema: RevisionSchema, name: string, value: unknown): string | undefined {
  const fn = validators.validator(rootOf(schema, name));
  const problem = runValidator(fn, value);
  if (problem === undefined) return undefined;
  const where = [...new Set((fn.errors ?? []).map((e) => `${e.instancePath || "/"}: ${e.keyword}`))].slice(0, 5);
  return `${problem}${where.length ? ` (at ${where.join("; ")})` : ""}`;
}

/** The definition a message (or, for a response, its result) is judged as, in one revision; undefined when the revision does not define it. */
function definitionFor(schema: RevisionSchema, p: Paired): { name: string; value: unknown; what: string } | undefined {
  const { shape } = p;
  if (shape.kind === "request") {
    const name = schema.requests.get(shape.method);
    return name === undefined ? undefined : { name, value: p.event.message, what: `${shape.method} request` };
  }
  if (shape.kind === "notification") {
    const name = schema.notifications.get(shape.method);
    return name === undefined ? undefined : { name, value: p.event.message, what: `${shape.method} notification` };
  }
  if (shape.kind !== "response" || !shape.hasResult || shape.hasError || !p.request) return undefined;
  const method = p.request.method;
  const result = shape.result;
  if (isRecord(result) && result["resultType"] === "input_required")
    return Object.hasOwn(schema.defs, "InputRequiredResult") ? { name: "InputRequiredResult", value: result, what: `${method} result` } : undefined;
  // A task created for a tools/call: CreateTaskResult in 2025-11-25; the 2026-07-28 tasks extension is not in its schema.
  if (isRecord(result) && result["resultType"] === "task") return undefined;
  if (method === "tools/call" && isRecord(result) && isRecord(result["task"]) && !Object.hasOwn(result, "content"))
    return Object.hasOwn(schema.defs, "CreateTaskResult") ? { name: "CreateTaskResult", value: result, what: "tools/call result" } : undefined;
  const name = schema.results.get(method);
  return name === undefined ? undefined : { name, value: result, what: `${method} result` };
}

/**
 * Judges one message. `revision`: the revision the exchange speaks, when known (a 2025 revision
 * before 2025-11-25 is not judged); undefined: either revision's schema may accept it.
 */
export function checkSpecShape(p: Paired, revision: string | undefined, ctx: RuleContext): void {
  if (revision !== undefined && !SPEC_REVISIONS.includes(revision as SpecRevision)) return;
  const candidates = revision === undefined ? SPEC_REVISIONS : [revision as SpecRevision];
  let first: { revision: SpecRevision; name: string; what: string; problem: string } | undefined;
  let judged = false;
  for (const candidate of candidates) {
    const schema = schemaOf(candidate);
    const definition = definitionFor(schema, p);
    if (!definition) continue;
    judged = true;
    const problem = problemAs(schema, definition.name, definition.value);
    if (problem === undefined) return;
    first ??= { revision: candidate, name: definition.name, what: definition.what, problem };
  }
  if (!judged || !first) return;
  const id = p.shape.kind === "invalid" ? undefined : "id" in p.shape ? p.shape.id : undefined;
  const era = revision === undefined ? `MCP ${candidates.filter((c) => definitionFor(schemaOf(c), p)).join(" or ")}` : `MCP ${first.revision}`;
  ctx.report(
    "spec-shape",
    p.event.line,
    id,
    `the ${first.what} is no ${first.name} of ${era}: ${first.problem}`,
    `give it the shape of ${first.name} in MCP's schema (schema/${first.revision}/schema.json of the specification)`,
  );
}
