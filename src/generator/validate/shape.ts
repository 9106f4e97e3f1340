/**
 * Stage 2a, validate the manifest's shape: required fields, types, unknown fields, name rules and
 * duplicates. Every problem is collected; nothing stops at the first.
 */
import { formatPath, type Diagnostic, type DocPath } from "../../common/diagnostics.js";
import { diagnosticAt, type LoadedManifest } from "../load/loadManifest.js";
import { contentFields } from "./contentFields.js";
import { DEF_NAME, SERVER_NAME, type FieldSpec } from "./fields.js";
import { manifestFields } from "./manifestFields.js";
import { looksLikeText, quoteHint } from "./flowText.js";
import { isPlainObject } from "../../common/objects.js";
import { didYouMean } from "../../common/didYouMean.js";

/**
 * `pulled`: `mcpgen pull` wrote the manifest from a server someone else runs, so a field of an MCP
 * object that looks like a typo is that server's, served as it is: a warning.
 */
export function validateShape(manifest: LoadedManifest, options: { pulled?: boolean } = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  const line = (path: DocPath) => manifest.locate(path, "value").line;
  const report = (path: DocPath, code: Diagnostic["code"], message: string, at?: "key" | "value", severity?: "warning") =>
    out.push(diagnosticAt(manifest, path, code, message, { at, ...(severity ? { severity } : {}) }));

  const root = manifest.value;
  if (!isPlainObject(root)) {
    report([], "not-a-mapping", "a manifest is a YAML mapping with `server:` and any of `tools:`, `resources:`, `resourceTemplates:`, `prompts:`, `defs:`");
    return out;
  }
  if (manifest.mayHoldNonFinite) checkJsonValues(root, [], report);
  checkRecord(root, manifestFields, [], "the manifest", report, false, options.pulled === true);
  // The server's name names the output folder, unless `folder:` does.
  if (isPlainObject(root.server) && typeof root.server.name === "string" && root.server.folder === undefined && !SERVER_NAME.test(root.server.name)) {
    report(
      ["server", "name"],
      "invalid-name",
      `\`name\` ${JSON.stringify(root.server.name)} is not a folder name: use lowercase letters, digits and '-', starting with a letter or digit (it names the output folder), or keep it and add \`folder:\` with such a name`,
    );
  }

  if (isPlainObject(root.defs)) {
    for (const name of Object.keys(root.defs)) {
      if (!DEF_NAME.test(name)) {
        report(
          ["defs", name],
          "invalid-name",
          `def name ${JSON.stringify(name)} must match ${DEF_NAME.source} (it becomes a TypeScript type name and a $ref target)`,
          "key",
        );
      }
    }
  }
  checkUnique(root.tools, "name", "tool", ["tools"], report, line);
  checkUnique(root.resources, "name", "resource", ["resources"], report, line);
  checkUnique(root.resources, "uri", "resource", ["resources"], report, line);
  checkUnique(root.resourceTemplates, "name", "resource template", ["resourceTemplates"], report, line);
  checkUnique(root.resourceTemplates, "uriTemplate", "resource template", ["resourceTemplates"], report, line);
  checkUnique(root.prompts, "name", "prompt", ["prompts"], report, line);
  checkUnique(root.widgets, "name", "widget", ["widgets"], report, line);
  checkUnique(root.widgets, "uri", "widget", ["widgets"], report, line);

  if (Array.isArray(root.resources)) {
    root.resources.forEach((resource, i) => {
      if (!isPlainObject(resource)) return;
      const sources = ["text", "blob", "file"].filter((k) => resource[k] !== undefined);
      if (sources.length > 1) {
        report(
          ["resources", i, sources[1]!],
          "invalid-value",
          `a resource has at most one of text, blob and file (found ${sources.join(", ")}); keep one, or none to serve it from a handler`,
          "key",
        );
      }
      if (typeof resource.blob === "string" && !isBase64(resource.blob)) {
        report(
          ["resources", i, "blob"],
          "invalid-value",
          "blob must be base64 (RFC 4648, with padding); use text for plain text or file for a file next to the manifest",
        );
      }
    });
  }
  if (Array.isArray(root.prompts)) {
    root.prompts.forEach((prompt, i) => {
      if (isPlainObject(prompt)) checkUnique(prompt.arguments, "name", "argument", ["prompts", i, "arguments"], report, line);
    });
  }
  return out;
}

/** YAML can spell numbers JSON cannot carry (.inf, .nan); they would change on the wire. */
function checkJsonValues(root: unknown, base: DocPath, report: Report): void {
  const stack: (string | number)[] = [...base];
  const walk = (value: unknown): void => {
    if (typeof value === "number") {
      if (!Number.isFinite(value)) report([...stack], "invalid-value", `${String(value)} cannot be sent as JSON: use a finite number (or a string)`);
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        stack.push(i);
        walk(value[i]);
        stack.pop();
      }
    } else if (typeof value === "object" && value !== null) {
      for (const key of Object.keys(value)) {
        stack.push(key);
        walk((value as Record<string, unknown>)[key]);
        stack.pop();
      }
    }
  };
  walk(root);
}

export type Report = (path: DocPath, code: Diagnostic["code"], message: string, at?: "key" | "value", severity?: "warning") => void;

/** Said after a number or boolean where a string belongs; meant for YAML (a JSON config drops it). */
export const QUOTE_IN_YAML = " (quote it in YAML)";

/**
 * Checks a mapping against a field table: missing and unknown fields (with a did-you-mean), and
 * each value's type and allowed values, each problem at its key or value. `what` names the
 * mapping in messages (`the manifest`, `the config`). `open`: an MCP object, whose unknown fields
 * are served as they are (a warning), typos aside (an error: see common/didYouMean.ts for the rule).
 * `upstream`: the manifest mirrors a server someone else runs (pulled), whose typos in MCP objects
 * are warnings too, for it serves them so.
 */
/** JSON Schema keys of an object schema that a tool itself never has: under a tool they are an inputSchema's, dedented. */
const INPUT_SCHEMA_KEYS = new Set([
  "required",
  "properties",
  "additionalProperties",
  "patternProperties",
  "dependentRequired",
  "minProperties",
  "maxProperties",
]);

export function checkRecord(
  value: Record<string, unknown>,
  fields: Record<string, FieldSpec>,
  path: DocPath,
  what: string,
  report: Report,
  open = false,
  upstream = false,
): void {
  for (const [key, spec] of Object.entries(fields)) {
    if (spec.required && value[key] === undefined) {
      report(path, "missing-field", `${what} is missing the required field \`${key}\``);
    }
  }
  for (const [key, child] of Object.entries(value)) {
    const spec = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (spec === undefined) {
      const hint = didYouMean(key, Object.keys(fields));
      if (open && hint !== undefined && upstream) {
        report(
          [...path, key],
          "unknown-field",
          `field \`${key}\` in ${what} looks like a typo of \`${hint}\`: the upstream server serves it so, and clients will not read it as \`${hint}\`; report it there (it is served as it is)`,
          "key",
          "warning",
        );
        continue;
      }
      // A key of the input schema dedented to the tool (`required:` under the tool, not inputSchema):
      // served as written, it would make every input optional.
      if (open && !upstream && path.length === 2 && path[0] === "tools" && INPUT_SCHEMA_KEYS.has(key)) {
        report(
          [...path, key],
          "misplaced-key",
          `\`${key}\` in a tool is a key of its inputSchema: indent it under \`inputSchema:\` (here no client or validator reads it${key === "required" ? ", and every input is optional" : ""})`,
          "key",
        );
        continue;
      }
      if (open && hint === undefined) {
        report(
          [...path, key],
          "unknown-field",
          `field \`${key}\` in ${what} is not one mcpgen knows; it is served as it is (known fields: ${Object.keys(fields).join(", ")})${looksLikeText(key, child) ? `. It looks like text: ${quoteHint(value, key)}` : ""}`,
          "key",
          "warning",
        );
        continue;
      }
      report(
        [...path, key],
        "unknown-field",
        `unknown field \`${key}\` in ${what}${hint ? ` (did you mean \`${hint}\`?)` : ""}; allowed: ${Object.keys(fields).join(", ")}`,
        "key",
      );
      continue;
    }
    checkValue(child, spec, [...path, key], report, upstream);
  }
}

function checkValue(value: unknown, spec: FieldSpec, path: DocPath, report: Report, upstream: boolean): void {
  const name = String(path[path.length - 1]);
  const label = typeof path[path.length - 1] === "number" ? "item" : `\`${name}\``;
  if (value === undefined) return;
  switch (spec.kind) {
    case "string":
      if (typeof value !== "string")
        return report(
          path,
          "invalid-type",
          `${label} must be ${spec.expected ?? "a string"}, not ${describe(value)}${typeof value === "number" || typeof value === "boolean" ? QUOTE_IN_YAML : ""}`,
        );
      if (spec.nonEmpty && value === "") return report(path, "invalid-value", `${label} must be ${spec.expected ?? "a non-empty string"}, not the string ""`);
      if (spec.oneOf && !spec.oneOf.includes(value)) {
        // The hint says why the others are refused (`HS256` is no typo of `RS256`); else a typo's did-you-mean.
        const near = didYouMean(value, spec.oneOf);
        const extra =
          name === "role" && value === "system"
            ? " (MCP prompts have no system role: use user)"
            : spec.oneOfHint
              ? ` (${spec.oneOfHint})`
              : near !== undefined
                ? ` (did you mean ${JSON.stringify(near)}?)`
                : "";
        return report(
          path,
          "invalid-value",
          `${label} must be one of ${spec.oneOf.map((v) => JSON.stringify(v)).join(", ")}, not ${JSON.stringify(value)}${extra}`,
        );
      }
      if (spec.pattern && !spec.pattern.test(value)) {
        if (spec.patternIsAdvice && value !== "")
          return report(
            path,
            "invalid-name",
            `${label} ${JSON.stringify(value)} is not advised: use ${spec.patternHint ?? spec.pattern.source}`,
            undefined,
            "warning",
          );
        return report(path, "invalid-name", `${label} ${JSON.stringify(value)} is not valid: use ${spec.patternHint ?? spec.pattern.source}`);
      }
      return;
    case "boolean":
      if (typeof value !== "boolean") report(path, "invalid-type", `${label} must be true or false, not ${describe(value)}`);
      return;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return report(path, "invalid-type", `${label} must be a number, not ${describe(value)}`);
      if (spec.integer && !Number.isInteger(value)) return report(path, "invalid-value", `${label} must be a whole number, not ${value}`);
      if ((spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max)) {
        report(path, "invalid-value", `${label} must be between ${spec.min ?? "-∞"} and ${spec.max ?? "∞"}, not ${value}`);
      }
      return;
    case "json":
      if (spec.object && !isPlainObject(value)) report(path, "invalid-type", `${label} must be ${spec.expected ?? "a mapping"}, not ${describe(value)}`);
      return;
    case "schema":
      if (!isPlainObject(value) && typeof value !== "boolean")
        report(path, "invalid-type", `${label} must be a JSON Schema (a mapping), not ${describe(value)}`);
      return;
    case "stringList":
      if (!Array.isArray(value)) return report(path, "invalid-type", `${label} must be a list of strings, not ${describe(value)}`);
      value.forEach((item, i) => {
        if (typeof item !== "string") report([...path, i], "invalid-type", `item must be a string, not ${describe(item)}`);
      });
      return;
    case "list":
      if (!Array.isArray(value)) return report(path, "invalid-type", `${label} must be a list, not ${describe(value)}`);
      if (spec.nonEmpty && value.length === 0) return report(path, "invalid-value", `${label} must not be an empty list`);
      value.forEach((item, i) => checkValue(item, spec.item, [...path, i], report, upstream));
      return;
    case "record":
      if (!isPlainObject(value)) return report(path, "invalid-type", `${label} must be a mapping, not ${describe(value)}`);
      return checkRecord(value, spec.fields, path, describePath(path), report, spec.open === true, upstream);
    case "anyOf": {
      // The value fits when one of the kinds takes it as it is. When one kind takes its shape
      // (a list) but not all of its contents, its problems are reported, each at its own place.
      const tried = spec.of.map((kind) => {
        const problems: Parameters<Report>[] = [];
        checkValue(value, kind, path, (...problem) => void problems.push(problem), upstream);
        return problems;
      });
      if (tried.some((problems) => problems.length === 0)) return;
      const inside = tried.find((problems) => problems.every(([at]) => at.length > path.length));
      if (inside) for (const problem of inside) report(...problem);
      else report(path, "invalid-type", `${label} must be ${spec.expected}, not ${describe(value)}`);
      return;
    }
    case "content": {
      if (!isPlainObject(value)) return report(path, "invalid-type", `${label} must be a content block (a mapping with a type), not ${describe(value)}`);
      const type = value.type;
      const fields = typeof type === "string" && Object.hasOwn(contentFields, type) ? contentFields[type] : undefined;
      if (!fields) {
        return report(
          type === undefined ? path : [...path, "type"],
          type === undefined ? "missing-field" : "invalid-value",
          `content \`type\` must be one of ${Object.keys(contentFields)
            .map((t) => JSON.stringify(t))
            .join(", ")}${type === undefined ? "" : `, not ${JSON.stringify(type)}`}`,
        );
      }
      checkRecord(value, fields, path, `${JSON.stringify(type)} content`, report, true, upstream);
      if (type === "resource" && isPlainObject(value.resource)) {
        const r = value.resource;
        if ((r.text === undefined) === (r.blob === undefined))
          report([...path, "resource"], "invalid-value", "an embedded resource has exactly one of text and blob");
      }
      return;
    }
  }
}

function describePath(path: DocPath): string {
  const top = path[0];
  const names: Record<string, string> = {
    server: "server",
    tools: "a tool",
    resources: "a resource",
    resourceTemplates: "a resource template",
    prompts: "a prompt",
    widgets: "a widget",
  };
  if (path.length === 1 && typeof top === "string") return names[top] ?? `\`${top}\``;
  if (path.length === 2 && typeof top === "string" && typeof path[1] === "number") return names[top] ?? "an item";
  const last = path[path.length - 1];
  if (typeof last === "number" && path.length >= 2) return `an item of \`${String(path[path.length - 2])}\``;
  return `\`${String(last)}\``;
}

function checkUnique(list: unknown, key: string, what: string, path: DocPath, report: Report, line: (path: DocPath) => number): void {
  if (!Array.isArray(list)) return;
  const seen = new Map<string, number>();
  list.forEach((item, i) => {
    if (!isPlainObject(item) || typeof item[key] !== "string") return;
    const value = item[key] as string;
    const first = seen.get(value);
    if (first === undefined) seen.set(value, i);
    else
      report(
        [...path, i, key],
        "duplicate-name",
        `duplicate ${what} ${key} ${JSON.stringify(value)}: also declared at line ${line([...path, first, key])} (${pathText([...path, first])}); each ${what} needs a unique ${key}`,
      );
  });
}

function pathText(path: DocPath): string {
  return formatPath(path);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value)}`;
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${value}`;
  return typeof value; // undefined: YAML gives nothing else
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
function isBase64(text: string): boolean {
  return BASE64.test(text);
}
