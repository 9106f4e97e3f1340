/**
 * The rules for an object's properties: added, removed or renamed properties, requiredness, and
 * `additionalProperties`. Two views meet here:
 *
 * - the wire: which JSON values each schema accepts (`narrows`, `widens`);
 * - typed code: the types mcpgen emits for the schema (src/generator/emit/schemaType.ts). A declared
 *   property is a member of the type; an undeclared one can be written or read only when the type
 *   has an index signature (`additionalProperties: true` or a schema, or no declared property at
 *   all). So removing a declared property breaks typed code that sends or reads it, whatever the
 *   wire allows, and a change that concerns only undeclared properties breaks no typed code when
 *   the type had no index signature. Those findings carry `typed`.
 */
import { indexSignature } from "../../jsonSchema/objects.js";
import { isPlainObject, jsonEqual } from "../../common/objects.js";
import type { Finding, Schema } from "./difference.js";

/** Compares two subschemas at `path`, returning their findings. */
export type CompareSub = (a: Schema, b: Schema, path: string) => Finding[];

/** The findings of `properties`, `required` and `additionalProperties` between two object schemas at `at`. */
export function propertyFindings(x: Record<string, unknown>, y: Record<string, unknown>, at: string, compare: CompareSub): Finding[] {
  const out: Finding[] = [];
  const reqA = new Set(Array.isArray(x.required) ? (x.required as string[]) : []);
  const reqB = new Set(Array.isArray(y.required) ? (y.required as string[]) : []);
  const propsA = isPlainObject(x.properties) ? x.properties : {};
  const propsB = isPlainObject(y.properties) ? y.properties : {};
  const extraA = (x.additionalProperties ?? true) as Schema;
  const extraB = (y.additionalProperties ?? true) as Schema;
  // Whether typed code could write undeclared properties before, and can now.
  const signatureA = indexSignature(x);
  const signatureB = indexSignature(y);
  const openA = signatureA === "values";
  const openB = signatureB === "values";
  const where = (name: string) => join(at, `properties.${name}`);

  // Requiredness of a property declared on both sides (or on neither); an added or removed
  // property's is said in its own row.
  const declaredOnOneSide = (name: string) => Object.hasOwn(propsA, name) !== Object.hasOwn(propsB, name);
  for (const name of reqB)
    if (!reqA.has(name) && !declaredOnOneSide(name)) out.push({ path: where(name), message: `${name} is now required`, narrows: true, widens: false });
  for (const name of reqA) {
    if (reqB.has(name) || declaredOnOneSide(name)) continue;
    const finding: Finding = { path: where(name), message: `${name} is no longer required`, narrows: false, widens: true };
    // Required but declared on neither side: the type had it as a member only because it was required.
    if (!Object.hasOwn(propsA, name) && !openB) out.push({ ...finding, typed: { narrows: true, widens: true }, change: "property-removed" });
    else out.push(finding);
  }

  const removed = Object.keys(propsA).filter((n) => !Object.hasOwn(propsB, n));
  const added = Object.keys(propsB).filter((n) => !Object.hasOwn(propsA, n));
  for (const name of Object.keys(propsA)) if (Object.hasOwn(propsB, name)) out.push(...compare(propsA[name] as Schema, propsB[name] as Schema, where(name)));

  // Where patternProperties or unevaluatedProperties also decide what an undeclared property may
  // hold, adding or removing a declared one is not reasoned about.
  if (["patternProperties", "unevaluatedProperties"].some((k) => x[k] !== undefined || y[k] !== undefined)) {
    for (const name of removed)
      out.push(both(where(name), `property ${name} removed next to patternProperties or unevaluatedProperties; compatibility is not proven`));
    for (const name of added)
      out.push(both(where(name), `property ${name} added next to patternProperties or unevaluatedProperties; compatibility is not proven`));
  } else {
    // A removed and an added property with the same schema: most likely a rename.
    const renamed = new Map<string, string>();
    for (const name of removed) {
      const to = added.find((n) => ![...renamed.values()].includes(n) && jsonEqual(propsA[name], propsB[n]));
      if (to !== undefined) renamed.set(name, to);
    }
    for (const name of removed) {
      const to = renamed.get(name);
      const gone = removal(name, propsA[name] as Schema, extraB, [reqA.has(name), reqB.has(name)], openB, where(name), compare);
      if (to === undefined) {
        out.push(gone);
        continue;
      }
      const arrival = addition(to, propsB[to] as Schema, extraA, [reqA.has(to), reqB.has(to)], openA, where(to), compare);
      const required = reqA.has(name) === reqB.has(to) ? "" : reqB.has(to) ? ", now required" : ", no longer required";
      out.push({
        ...gone,
        message: `property ${name} renamed to ${to}? (same schema${required})`,
        narrows: gone.narrows || arrival.narrows,
        widens: gone.widens || arrival.widens,
        change: "property-renamed",
      });
    }
    for (const name of added)
      if (![...renamed.values()].includes(name))
        out.push(addition(name, propsB[name] as Schema, extraA, [reqA.has(name), reqB.has(name)], openA, where(name), compare));
  }

  const extraPath = join(at, "additionalProperties");
  const extras = x.additionalProperties !== undefined || y.additionalProperties !== undefined ? compare(extraA, extraB, extraPath) : [];
  // Values under undeclared names: typed code sends or reads them only where the type lets it.
  for (const f of extras) {
    // Undeclared properties now refused: typed code wrote them (calls, or handlers' results as
    // literals) only if the old type admitted them. Now accepted: taken as the wire says, since
    // any object may carry more than its type declares (and mcpgen's client checks results
    // against the outputSchema it was generated from).
    if (!f.narrows || openA) out.push(f);
    else
      out.push({
        ...f,
        message: `${f.message} (for undeclared properties, which the old type does not admit)`,
        typed: { narrows: false, widens: f.widens },
        change: "undeclared-changed",
      });
  }
  // The type loses its index signature: typed code that sent or returned undeclared properties
  // no longer compiles, and, unless `never` values remain, code that read them.
  if (openA && !openB) {
    const readers = signatureB === undefined;
    const closed = {
      typed: { narrows: true, widens: readers },
      change: "type-closed" as const,
      consequence: {
        input: "typed calls with undeclared properties no longer compile",
        output: readers ? "code reading undeclared properties no longer compiles" : "handlers returning undeclared properties no longer compile",
      },
    };
    const i = out.findIndex((f) => f.path === extraPath);
    if (i >= 0) out[i] = { ...out[i]!, ...closed, typed: { narrows: true, widens: readers || (out[i]!.typed ?? out[i]!).widens } };
    else out.push({ path: extraPath, message: "undeclared properties are no longer in the type", narrows: false, widens: false, ...closed });
  }
  return out;
}

/** Whether a property is required before and after. */
type Requiredness = [before: boolean, after: boolean];

/** What a removed property's requiredness was and is (a name may be required undeclared). */
function requiredText([before, after]: Requiredness): string {
  return before ? (after ? ", still required" : ", it was required") : after ? ", now required" : "";
}

/** One row for a removed property: its values now fall to additionalProperties. */
function removal(name: string, was: Schema, extraB: Schema, required: Requiredness, openB: boolean, path: string, compare: CompareSub): Finding {
  const sub = extraB === false ? [] : compare(was, extraB, path);
  const detail = extraB === false ? " (no longer accepted)" : isPlainObject(extraB) && sub.length ? ` (now under additionalProperties: ${messages(sub)})` : "";
  const input =
    extraB === false
      ? "calls that send it are refused"
      : openB
        ? "calls that send it still compile, but the server no longer reads it"
        : "typed calls that send it no longer compile, and the server ignores it";
  const narrows = extraB === false || (required[1] && !required[0]) || sub.some((f) => f.narrows);
  return {
    path,
    message: `property ${name} removed${detail}${requiredText(required)}`,
    narrows,
    widens: (required[0] && !required[1]) || sub.some((f) => f.widens),
    // Code that sends it or reads it names a member the type no longer has (still required, it
    // stays a member, typed as any undeclared property: code reading it breaks, code sending it not).
    typed: { narrows: required[1] ? narrows : true, widens: true },
    change: "property-removed",
    consequence: required[1] ? { output: "code that reads it no longer compiles" } : { input, output: "code that reads it no longer compiles" },
  };
}

/** One row for an added property: its values were undeclared ones (additionalProperties) before. */
function addition(name: string, now: Schema, extraA: Schema, required: Requiredness, openA: boolean, path: string, compare: CompareSub): Finding {
  const sub = extraA === false ? [] : compare(extraA, now, path);
  const newlyRequired = required[1] && !required[0];
  const narrows = newlyRequired || sub.some((f) => f.narrows);
  const widens = extraA === false || (required[0] && !required[1]) || sub.some((f) => f.widens);
  const detail = isPlainObject(extraA) && sub.length ? ` (was under additionalProperties: ${messages(sub)})` : "";
  return {
    path,
    message: `${required[1] ? "required " : ""}property ${name} added${detail}${required[0] && !required[1] ? " (it was required undeclared)" : ""}`,
    narrows,
    widens,
    // Before, only code that could use undeclared properties could send or return it (or, required
    // undeclared, it was a member typed as they are).
    typed: { narrows: newlyRequired || ((openA || required[0]) && narrows), widens },
    change: "property-added",
    ...(openA || required[0] || newlyRequired || extraA === false
      ? {}
      : { consequence: { input: "only calls that sent it undeclared (no typed one) may be refused" } }),
  };
}

function messages(findings: Finding[]): string {
  return findings.map((f) => f.message).join("; ");
}

function both(path: string, message: string): Finding {
  return { path, message, narrows: true, widens: true };
}

function join(at: string, key: string): string {
  return at === "" ? key : `${at}.${key}`;
}
