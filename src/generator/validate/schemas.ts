/**
 * Stage 2b, validate the JSON Schemas: MCP's object rule for tool schemas, `$ref` targets, the
 * JSON Schema meta-schema, compilability, and tool examples against their schemas.
 */
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { Diagnostic, DocPath } from "../../common/diagnostics.js";
import { diagnosticAt, type LoadedManifest } from "../load/loadManifest.js";
import { bundleSchema, classifyRef, forEachSchema, pointsInto, type JsonSchema } from "../../jsonSchema/refs.js";
import { admitsAnyObject } from "../../jsonSchema/objects.js";
import { isDraft07 } from "@mcpgen/runtime/codegen";
import { validateDraft07, validateDraft2020, type MetaValidator } from "./metaSchemas.generated.js";
import { looksLikeText, quoteHint } from "./flowText.js";
import { isPlainObject } from "../../common/objects.js";
import { backtrackingRisk } from "../../jsonSchema/backtracking.js";
import { DEFAULT_MAX_PATTERN_MS, longestWithin, planPattern, repetitionCosts, type RepetitionCost } from "@mcpgen/runtime/codegen";
import { matchesPattern } from "../../jsonSchema/patterns.js";
import { KEYWORDS, NULL_ALLOWED, SUBSCHEMAS } from "../../jsonSchema/keywords.js";
import { dialectOf, schemaKeyFindings } from "./schemaKeys.js";
import { undeclaredKeys } from "./exampleKeys.js";
import { didYouMean } from "../../common/didYouMean.js";

/** Reports a problem at a path: at its value, or at its key (`side: "key"`). */
type Report = (path: DocPath, code: Diagnostic["code"], message: string, side?: "key", severity?: "warning") => void;

export interface SchemaCheckOptions {
  /**
   * The manifest was written by `mcpgen pull` from a server someone else wrote: problems in its
   * schemas are that server's, reported as warnings, so its definitions always compile.
   */
  pulled?: boolean;
}

/**
 * ajv, loaded only when a manifest has tool examples to check (loading it costs about 0.06 s), and
 * one instance per dialect for the whole run, created on first use (each costs tens of ms).
 */
let examplesAjv: Promise<{ draft07: () => Ajv; draft2020: () => Ajv; runValidator: typeof import("@mcpgen/runtime/codegen").runValidator }> | undefined;
const loadExamplesAjv = () =>
  (examplesAjv ??= import("@mcpgen/runtime/codegen").then(({ createAjv, runValidator }) => {
    const instances: { draft07?: Ajv; draft2020?: Ajv } = {};
    // Examples are checked as the generated server checks arguments: patterns in linear time.
    return {
      draft07: () => (instances.draft07 ??= createAjv(true, planPattern)),
      draft2020: () => (instances.draft2020 ??= createAjv(false, planPattern)),
      runValidator,
    };
  }));

export async function validateSchemas(manifest: LoadedManifest, options: SchemaCheckOptions = {}): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const root = manifest.value as Record<string, unknown>;
  const defs = new Map<string, unknown>(isPlainObject(root.defs) ? Object.entries(root.defs) : []);
  const tools = Array.isArray(root.tools) ? root.tools : [];
  const ajv = tools.some((tool) => isPlainObject(tool) && Array.isArray(tool.examples) && tool.examples.length > 0) ? await loadExamplesAjv() : undefined;
  const problemsOf = (fn: ValidateFunction, value: unknown) => ajv!.runValidator(fn, value);
  const report: Report = (path, code, message, side, severity) =>
    out.push(diagnosticAt(manifest, path, code, message, { ...(side ? { at: side } : {}), ...(severity ? { severity } : {}) }));
  const blind = options.pulled ? "warning" : undefined;

  for (const [name, def] of defs) {
    const path = ["defs", name];
    if (!isPlainObject(def) && typeof def !== "boolean") {
      report(path, "invalid-type", `def \`${name}\` must be a JSON Schema (a mapping)`);
      continue;
    }
    checkNodes(def, path, defs, report, true, blind);
    checkKeywordTypos(def, path, report, blind);
    metaValidate(validateDraft2020, def, path, report);
  }

  tools.forEach((tool, i) => {
    if (!isPlainObject(tool)) return;
    const validators: Partial<Record<"inputSchema" | "outputSchema", ValidateFunction>> = {};
    for (const key of ["inputSchema", "outputSchema"] as const) {
      const schema = tool[key];
      const path = ["tools", i, key];
      if (typeof schema === "boolean") {
        if (blind)
          report(
            path,
            "schema-not-object",
            `${key} is the boolean schema ${String(schema)}, not a mapping with type: "object" as MCP asks; the upstream server serves it so: it is kept as it came, and ${typedAs(key, schema)}`,
            undefined,
            blind,
          );
        else
          report(
            path,
            "schema-not-object",
            `tools[${i}].${key}: must be a JSON Schema mapping with type: "object", not the boolean schema ${String(schema)} (MCP clients reject it)`,
          );
        continue;
      }
      if (!isPlainObject(schema)) continue;
      if (schema.type !== "object") {
        const at = schema.type === undefined ? path : [...path, "type"];
        if (blind) {
          const said = schema.type === undefined ? "has no type" : `has type ${JSON.stringify(schema.type)}`;
          report(
            at,
            "schema-not-object",
            `${key} ${said}, not "object" as MCP asks; the upstream server serves it so: it is kept as it came, and ${typedAs(key, schema)}`,
            undefined,
            blind,
          );
        } else {
          report(
            at,
            "schema-not-object",
            key === "inputSchema"
              ? schema.type === undefined
                ? `tools[${i}].inputSchema has no type: add \`type: object\` (MCP clients reject tool input schemas without it)`
                : `tools[${i}].inputSchema: type must be "object" (MCP clients reject other tool input schemas); wrap other values in a property`
              : `tools[${i}].outputSchema: type must be "object" (structuredContent is always a JSON object); wrap other values in a property`,
          );
        }
      }
      const before = errorCount(out);
      checkNodes(schema, path, defs, report, false, blind);
      checkKeywordTypos(schema, path, report, blind);
      const draft07 = isDraft07(schema);
      metaValidate(draft07 ? validateDraft07 : validateDraft2020, schema, path, report);
      // Compiling a validator costs milliseconds per schema: only tools with examples need one.
      if (!ajv || errorCount(out) > before || !Array.isArray(tool.examples) || tool.examples.length === 0) continue;
      try {
        validators[key] = (draft07 ? ajv.draft07() : ajv.draft2020()).compile(bundleSchema(schema, defs) as object);
      } catch (error) {
        report(path, "invalid-schema", `${key} does not compile: ${(error as Error).message}`);
      }
    }
    if (Array.isArray(tool.examples)) {
      tool.examples.forEach((example, j) => {
        if (!isPlainObject(example)) return;
        const path = ["tools", i, "examples", j];
        const argumentProblems = validators.inputSchema && example.arguments !== undefined ? problemsOf(validators.inputSchema, example.arguments) : undefined;
        if (argumentProblems !== undefined)
          report([...path, "arguments"], "invalid-example", `example arguments do not match inputSchema: ${argumentProblems}`);
        else if (validators.inputSchema)
          for (const found of undeclaredKeys(tool.inputSchema as JsonSchema, example.arguments, "inputSchema", defs))
            report([...path, "arguments", ...found.path], "invalid-example", found.message, "key");
        if (example.result === undefined) return;
        if (tool.outputSchema !== undefined) {
          const resultProblems = validators.outputSchema ? problemsOf(validators.outputSchema, example.result) : undefined;
          if (resultProblems !== undefined) report([...path, "result"], "invalid-example", `example result does not match outputSchema: ${resultProblems}`);
          else if (validators.outputSchema)
            for (const found of undeclaredKeys(tool.outputSchema as JsonSchema, example.result, "outputSchema", defs))
              report([...path, "result", ...found.path], "invalid-example", found.message, "key");
        } else if (typeof example.result !== "string" && !(isPlainObject(example.result) && Array.isArray(example.result.content))) {
          report(
            [...path, "result"],
            "invalid-example",
            "example result of a tool without outputSchema is a string (one text block) or a CallToolResult with `content`",
          );
        }
      });
    }
  });
  return out;
}

/** How the generated code types a tool schema that is not `type: "object"` (see emit/types.ts). */
function typedAs(key: "inputSchema" | "outputSchema", schema: JsonSchema): string {
  const what = key === "inputSchema" ? "the arguments are" : "the structured output is";
  if (schema === false) return `${what} typed as never (no value is valid)`;
  if (admitsAnyObject(schema)) return `${what} typed as an open record (any properties)`;
  if (isPlainObject(schema) && schema.type === undefined && schema.properties !== undefined) return `${what} typed as the object its properties describe`;
  return `${what} typed as the schema admits`;
}

/**
 * One walk over every schema node: each `$ref` must name a manifest def or one of the schema's
 * own `$defs`, and `pattern` and `patternProperties` keys must be regular expressions the
 * server's validator (ajv, with the `u` flag) accepts (checked here, where only a compile would
 * otherwise find them).
 */
function errorCount(list: readonly Diagnostic[]): number {
  return list.reduce((n, d) => n + (d.severity === "error" ? 1 : 0), 0);
}

const COMPOSITION_KEYS = new Set(["allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies"]);

/** Keywords whose next path segment is a name (a property, a definition), not a keyword: those holding a map of schemas. */
const NAMED = new Set(Object.keys(SUBSCHEMAS).filter((k) => SUBSCHEMAS[k] === "map"));

/** Whether a schema path goes through a composition keyword (names of properties do not count). */
function inComposition(path: readonly (string | number)[]): boolean {
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    if (typeof segment !== "string") continue;
    if (COMPOSITION_KEYS.has(segment)) return true;
    if (NAMED.has(segment)) i++;
  }
  return false;
}

/** Keys YAML made from text (see flowText.ts), which would be served as keywords. */
function checkKeys(node: Record<string, unknown>, at: () => DocPath, report: Report, blind: "warning" | undefined): void {
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (misplacedProperty(node, key)) {
      const path = at();
      const owner = path.length >= 2 && path[path.length - 2] === "properties" ? ` of \`${String(path[path.length - 1])}\`` : "";
      report(
        [...path, key],
        "misplaced-key",
        `\`${key}\` sits beside \`properties\`${owner} and reads as a property's schema, which no validator or client sees there: indent it under that \`properties\`${blind ? " (the upstream server sends it so: report it there)" : ""}`,
        "key",
        blind,
      );
      continue;
    }
    // Keywords with a bad value are the meta-schema check's; x- keys are extensions on purpose.
    if (!looksLikeText(key, value) || KEYWORDS.has(key) || NULL_ALLOWED.has(key) || key.startsWith("x-")) continue;
    const what = value === null ? `\`${key}\` is a key without a value (null)` : `\`${key}\` reads like text, not a JSON Schema keyword`;
    report([...at(), key], "suspicious-key", `${what}; it would be served as a keyword. ${capitalize(quoteHint(node, key))}`, "key", "warning");
  }
}

/** Keys that make a mapping read as a JSON Schema. */
const SCHEMA_SHAPE = new Set([
  "type",
  "properties",
  "items",
  "enum",
  "const",
  "$ref",
  "anyOf",
  "oneOf",
  "allOf",
  "format",
  "pattern",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
]);

/** Whether `key` of an object schema is no keyword but a property's schema beside `properties` (dedented one level). */
function misplacedProperty(node: Record<string, unknown>, key: string): boolean {
  const value = node[key];
  return (
    isPlainObject(node.properties) && !KEYWORDS.has(key) && !key.startsWith("x-") && isPlainObject(value) && Object.keys(value).some((k) => SCHEMA_SHAPE.has(k))
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Keys that are typos of a keyword of the schema's dialect, or of an extension mcpgen reads (see schemaKeys.ts). */
function checkKeywordTypos(schema: JsonSchema, base: DocPath, report: Report, blind: "warning" | undefined): void {
  for (const finding of schemaKeyFindings(schema, dialectOf(schema))) {
    if (finding.kind !== "typo") continue;
    const { key, near } = finding;
    const message = key.startsWith("x-")
      ? `\`${key}\` is not an extension mcpgen reads (did you mean \`${near}\`?): it would be ignored; ${blind ? "the upstream server sends it so: report it there" : "fix the key"}`
      : `\`${key}\` is not a JSON Schema keyword (did you mean \`${near}\`?): validators and clients ignore it, so it does nothing of what \`${near}\` does; ${blind ? "the upstream server sends it so: report it there" : "fix the key, or start a key of your own with `x-`"}`;
    report([...base, ...finding.path], "keyword-typo", message, "key", blind);
  }
}

/**
 * A required property that no subschema describes (not in `properties`, no matching
 * `patternProperties`, no `additionalProperties` schema, no composition that could): a caller
 * can only send it blind, and the generated type cannot name it usefully.
 */
function checkRequired(node: Record<string, unknown>, at: () => DocPath, report: Report, blind: "warning" | undefined): void {
  if (!Array.isArray(node.required)) return;
  // A fragment that only lists names (`defs: {ByPhone: {required: [phone]}}`, used in an anyOf)
  // describes no object of its own: its names are declared where it is used.
  if (node.type !== "object" && node.properties === undefined && node.additionalProperties === undefined && node.patternProperties === undefined) return;
  const composed = ["allOf", "anyOf", "oneOf", "if", "then", "else", "dependentSchemas", "dependencies", "$ref", "$dynamicRef", "unevaluatedProperties"].some(
    (k) => node[k] !== undefined,
  );
  if (composed || isPlainObject(node.additionalProperties)) return;
  const properties = isPlainObject(node.properties) ? node.properties : {};
  const patterns = isPlainObject(node.patternProperties) ? Object.keys(node.patternProperties) : [];
  // One slip, one error: a typo of `properties` (keyword-typo) already says why its names are undeclared.
  if (Object.keys(node).some((key) => key !== "properties" && didYouMean(key, ["properties"]) === "properties")) return;
  node.required.forEach((name, i) => {
    if (typeof name !== "string" || Object.hasOwn(properties, name)) return;
    // A property's schema dedented beside `properties`: misplaced-key says so.
    if (misplacedProperty(node, name)) return;
    if (patterns.some((p) => matchesPattern(p, name))) return;
    const closed = node.additionalProperties === false;
    const declared = Object.keys(properties);
    const near = didYouMean(name, declared);
    const fix = near
      ? `did you mean \`${near}\`?`
      : `add it under \`properties\` with its schema${declared.length ? ` (declared: ${declared.join(", ")})` : ""}, or remove it from \`required\``;
    const why = closed
      ? "with additionalProperties: false, no value can ever be valid"
      : "a caller can only satisfy it blind, and the generated type says `unknown`";
    report([...at(), "required", i], "required-without-schema", `\`${name}\` is required but has no schema: ${why}; ${fix}`, undefined, blind);
  });
}

/** Steps (characters × the pattern's cost factor) from which a pattern bounded by maxLength is reported: about a million. */
const COSTLY_STEPS = 1_000_000;

/**
 * The factors from which a repetition is reported: inside a lookbehind, where RE2JS really tries
 * every way at every position, and elsewhere, where it often absorbs them (the factor is then only
 * a bound, and the report a warning).
 */
const LOOKBEHIND_FACTOR = 100;
const ELSEWHERE_FACTOR = 1000;

/**
 * What `pattern-cost` reports of a pattern: the repetition furthest past its factor, one inside a
 * lookbehind first (the error), and the pattern's whole factor (the sum of its repetitions', as the
 * engine counts it); none when no repetition reaches its factor.
 */
function costliest(source: string): (RepetitionCost & { total: number }) | undefined {
  const costs = repetitionCosts(source);
  const worst = (inLookbehind: boolean, threshold: number) => {
    let found: RepetitionCost | undefined;
    for (const cost of costs) if (cost.inLookbehind === inLookbehind && cost.factor >= threshold && cost.factor > (found?.factor ?? 0)) found = cost;
    return found;
  };
  const found = worst(true, LOOKBEHIND_FACTOR) ?? worst(false, ELSEWHERE_FACTOR);
  return found && { ...found, total: costs.reduce((sum, cost) => sum + cost.factor, 0) };
}

function checkNodes(schema: JsonSchema, base: DocPath, defs: ReadonlyMap<string, unknown>, report: Report, inDef: boolean, blind: "warning" | undefined): void {
  const local = isPlainObject(schema) ? schema : {};
  const checkPattern = (source: unknown, at: () => DocPath, side?: "key", maxLength?: unknown) => {
    if (typeof source !== "string") return;
    try {
      new RegExp(source, "u");
    } catch (error) {
      report(at(), "invalid-schema", `pattern ${JSON.stringify(source)} is not a valid regular expression: ${(error as Error).message}`, side);
      return;
    }
    const plan = planPattern(source);
    if ("unchecked" in plan) {
      const fix = blind
        ? "the generated server and client do not check it (the server's own clients still may)"
        : "the generated server would not check it: rewrite it without that part, or drop it and check the value in the handler";
      report(at(), "pattern-unsupported", `pattern ${JSON.stringify(source)} cannot run in linear time: ${plan.unchecked}; ${fix}`, side, blind);
      return;
    }
    const cost = "regexp" in plan ? undefined : costliest(source);
    // A maxLength bounds the text the pattern ever runs on (it runs only once the length holds).
    if (cost && !(typeof maxLength === "number" && maxLength * cost.total < COSTLY_STEPS)) {
      const ways = cost.factor.toLocaleString("en-US");
      const how = cost.inLookbehind ? `inside a lookbehind is tried in up to ${ways} ways at every position` : `can be followed in up to ${ways} ways at once`;
      const bound = side === "key" ? "lower the count" : "give the schema a maxLength (the pattern runs only on strings within it), or lower the count";
      // Inside a lookbehind the cost is real: an error in a manifest written here. Elsewhere it is
      // a bound that RE2JS often beats: a warning.
      const severity = cost.inLookbehind ? blind : "warning";
      report(
        at(),
        "pattern-cost",
        `pattern ${JSON.stringify(source)} costs mcpgen's linear-time engine about ${cost.total.toLocaleString("en-US")} steps per input character: ${cost.culprit} ${how}, so the server and client refuse untested a string past about ${longestWithin(cost.total).toLocaleString("en-US")} characters (its check would not fit in maxPatternMs, ${DEFAULT_MAX_PATTERN_MS} ms by default); ${bound}`,
        side,
        severity,
      );
    }
    const risk = backtrackingRisk(source);
    if (risk) {
      const cost = risk.exponential ? "exponential" : "polynomial";
      const instead =
        risk.fix === undefined
          ? "rewrite it so that no two quantifiers can match the same text"
          : `the same pattern without the risk: ${JSON.stringify(risk.fix)}`;
      report(
        at(),
        "pattern-backtracking",
        `pattern ${JSON.stringify(source)} can take ${cost} time in backtracking regex engines (JavaScript's RegExp, which most MCP clients' validators use): ${risk.culprit} can match a run of ${JSON.stringify(risk.character)} in many ways, so such input plus one character that fails can stall them. mcpgen's server and client match it in linear time; ${instead}`,
        side,
        "warning",
      );
    }
  };
  forEachSchema(schema, (node, path) => {
    const here = () => [...base, ...path()];
    checkKeys(node, here, report, blind);
    // In a branch of a composition (`anyOf: [{required: [phone]}, {required: [email]}]`), the
    // names are usually declared by the schema around it.
    if (!inComposition(path())) checkRequired(node, here, report, blind);
    if (node.pattern !== undefined) checkPattern(node.pattern, () => [...base, ...path(), "pattern"], undefined, node.maxLength);
    if (isPlainObject(node.patternProperties))
      for (const key of Object.keys(node.patternProperties)) checkPattern(key, () => [...base, ...path(), "patternProperties", key], "key");
    if (node.$ref === undefined) return;
    const at = () => [...base, ...path(), "$ref"];
    if (typeof node.$ref !== "string") return report(at(), "invalid-schema", "$ref must be a string");
    const target = classifyRef(node.$ref);
    switch (target.kind) {
      case "def":
        if (!defs.has(target.name)) {
          const known = [...defs.keys()];
          report(
            at(),
            "unresolved-ref",
            `$ref ${JSON.stringify(node.$ref)} names no def; ${known.length ? `declared defs: ${known.join(", ")}` : "declare it under `defs:` at the top of the manifest"}`,
          );
        }
        return;
      case "local": {
        if (inDef) return report(at(), "unsupported-ref", `inside \`defs:\`, refer to other defs with $ref: '#/defs/${target.name}'`);
        const container = local[target.container];
        if (!isPlainObject(container) || !Object.hasOwn(container, target.name)) {
          report(at(), "unresolved-ref", `$ref ${JSON.stringify(node.$ref)} names nothing in this schema's ${target.container}`);
        }
        return;
      }
      case "root":
        if (inDef) report(at(), "unsupported-ref", "inside `defs:`, '#' is ambiguous; refer to the def itself with $ref: '#/defs/<Name>'");
        return;
      case "unsupported":
        // A server's own JSON pointer into the same schema (`#/properties/x`) is valid JSON Schema,
        // and its validators (ajv's too) follow it: kept as served, typed as unknown.
        if (blind && !inDef && pointsInto(schema, node.$ref))
          return report(
            at(),
            "unsupported-ref",
            `$ref ${JSON.stringify(node.$ref)} points into the schema itself, which mcpgen does not type; the upstream server serves it so: it is kept as it came and checked as JSON Schema says, and the value it describes is typed as unknown`,
            undefined,
            blind,
          );
        return report(at(), "unsupported-ref", `$ref ${JSON.stringify(node.$ref)} is not supported: ${target.reason}`);
    }
  });
  if (!inDef && isPlainObject(schema) && isPlainObject(schema.$defs)) {
    for (const name of Object.keys(schema.$defs)) {
      if (defs.has(name))
        report(
          [...base, "$defs", name],
          "invalid-schema",
          `local $defs entry \`${name}\` has the name of a manifest def, which is bundled under $defs on the wire; rename one of them`,
        );
    }
  }
}

/** The value at `path` inside `value`, or undefined where the path leads nowhere. */
function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const step of path) {
    if (Array.isArray(at)) at = at[Number(step)];
    else if (isPlainObject(at) && Object.hasOwn(at, step)) at = at[step];
    else return undefined;
  }
  return at;
}

/**
 * Checks a schema against its dialect's meta-schema (precompiled: see metaSchemas.generated.ts)
 * and reports each problem where it is.
 */
function metaValidate(validate: MetaValidator, schema: JsonSchema, base: DocPath, report: Report): void {
  const probe = isPlainObject(schema) ? { ...schema } : schema;
  if (isPlainObject(probe)) delete probe.$schema;
  if (validate(probe)) return;
  // The meta-schema reports one problem several ways (`type: strin` fails both the enum of type
  // names and "must be array"); keep one error per location, preferring the enum with its values.
  const byLocation = new Map<string, ErrorObject>();
  for (const error of validate.errors ?? []) {
    if (error.keyword === "if" || error.keyword === "anyOf" || error.keyword === "oneOf") continue;
    const kept = byLocation.get(error.instancePath);
    if (!kept || (error.keyword === "enum" && kept.keyword !== "enum")) byLocation.set(error.instancePath, error);
  }
  for (const error of byLocation.values()) {
    const path = error.instancePath
      .split("/")
      .slice(1)
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
    // `type: str`: the type name meant, when one is near.
    const given = path.length > 0 ? valueAt(schema, path) : undefined;
    const names = allowed?.map(String) ?? [];
    const prefixed = typeof given === "string" && given.length >= 2 ? names.filter((name) => name.startsWith(given.toLowerCase())) : [];
    const near = typeof given === "string" ? (prefixed.length === 1 ? prefixed[0] : didYouMean(given, names)) : undefined;
    report(
      [...base, ...path],
      "invalid-schema",
      `invalid JSON Schema at ${path.length ? path.join(".") : "the root"}: ${error.message ?? "invalid"}${allowed ? ` (${allowed.map((v) => JSON.stringify(v)).join(", ")})` : ""}${near ? `; did you mean ${JSON.stringify(near)}?` : ""}`,
    );
  }
}
