/**
 * The config's `diagnostics` key (and the older `lint` key): levels for warning codes, for every
 * manifest or for one manifest file or folder. Errors cannot be given a level: a config can quiet
 * a warning, never make an invalid manifest pass.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { DIAGNOSTIC_CODES, RULE_NAMES, WARNING_CODES, type DiagnosticLevels, type DocPath, type Level, type WarningCode } from "../common/diagnostics.js";
import { didYouMean } from "../common/didYouMean.js";
import { isPlainObject } from "../common/objects.js";

type Report = (at: DocPath, message: string, side?: "key" | "value") => void;
type Codes = Partial<Record<WarningCode, Level>>;

/** Why `name` cannot be given a level, or undefined when it can. */
export function refuseCode(name: string): string | undefined {
  if ((WARNING_CODES as readonly string[]).includes(name)) return undefined;
  const codes = `the codes that can be set: ${WARNING_CODES.join(", ")}`;
  if ((DIAGNOSTIC_CODES as readonly string[]).includes(name))
    return `\`${name}\` is an error, and errors cannot be turned off or down (fix what it reports); ${codes}`;
  const near = didYouMean(name, WARNING_CODES);
  return `unknown diagnostic code \`${name}\`${near ? ` (did you mean \`${near}\`?)` : ""}; ${codes}`;
}

/** A level as written, or undefined. */
export function asLevel(value: unknown): Level | undefined {
  return value === "off" || value === "warn" || value === "error" ? value : undefined;
}

/**
 * Reads `diagnostics` and `lint` of a config mapping (`dir`: the config file's folder); that each
 * is a mapping is the field table's check (config/fields.ts). The layers: every manifest first, then each file or folder, the shorter paths first (a manifest's own entry
 * wins over its folder's).
 */
export function readLevels(config: Record<string, unknown>, dir: string, report: Report): DiagnosticLevels {
  const global: Codes = {};
  const scoped: { within: string; codes: Codes }[] = [];
  const setLevel = (codes: Codes, at: DocPath, code: WarningCode, value: unknown) => {
    const level = asLevel(value);
    if (level) codes[code] = level;
    else report(at, `a level is "off", "warn" or "error", not ${JSON.stringify(value)}`);
  };
  const readCodes = (entries: Record<string, unknown>, at: DocPath, codes: Codes) => {
    for (const [name, value] of Object.entries(entries)) {
      const why = refuseCode(name);
      if (why) report([...at, name], why, "key");
      else setLevel(codes, [...at, name], name as WarningCode, value);
    }
  };

  const diagnostics = config.diagnostics;
  if (isPlainObject(diagnostics)) {
    for (const [key, value] of Object.entries(diagnostics)) {
      const at: DocPath = ["diagnostics", key];
      if ((DIAGNOSTIC_CODES as readonly string[]).includes(key) || !isPlainObject(value)) {
        const why = refuseCode(key);
        if (why) report(at, why, "key");
        else setLevel(global, at, key as WarningCode, value);
        continue;
      }
      const within = path.resolve(dir, key);
      if (!existsSync(within)) {
        report(
          at,
          `no such manifest file or folder: ${key} (relative to the config file); a key of \`diagnostics\` is a warning code, or a manifest file or folder mapped to codes and levels`,
          "key",
        );
        continue;
      }
      const codes: Codes = {};
      readCodes(value, at, codes);
      scoped.push({ within, codes });
    }
  }

  const lint = config.lint;
  if (isPlainObject(lint)) {
    for (const [rule, value] of Object.entries(lint)) {
      const at: DocPath = ["lint", rule];
      const known = RULE_NAMES.find((r) => r === rule);
      if (!known) {
        const near = didYouMean(rule, RULE_NAMES);
        report(
          at,
          `unknown lint rule \`${rule}\`${near ? ` (did you mean \`${near}\`?)` : ""}; the rules: ${RULE_NAMES.join(", ")} (other warning codes go under \`diagnostics\`)`,
          "key",
        );
      } else if (global[known] !== undefined) report(at, `\`${rule}\` is set in both \`lint\` and \`diagnostics\`; keep one`, "key");
      else setLevel(global, at, known, value);
    }
  }

  scoped.sort((a, b) => a.within.length - b.within.length);
  return [...(Object.keys(global).length ? [{ codes: global }] : []), ...scoped];
}
