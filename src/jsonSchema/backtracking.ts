/**
 * Which patterns take super-linear time in a backtracking engine (JavaScript's RegExp, used by
 * ajv in most MCP clients and in servers that do not run on mcpgen). mcpgen's own server and client
 * match in linear time (patterns.ts), so this is a warning about everyone else: a client that
 * checks a tool's output against `^(a+)+$` can be frozen by one answer.
 *
 * The analysis is scslre's (the one behind eslint-plugin-regexp's no-super-linear-backtracking):
 * fast and static, it finds quantifiers that trade characters with each other or with themselves.
 * It does not report the O(n²) cost of moving an unanchored search along the input, which nearly
 * every unanchored pattern has.
 */
import { analyse, type Report } from "scslre";

interface BacktrackingRisk {
  exponential: boolean;
  /** The quantifiers at fault, as written (`(a+)+`, or `\d+` and `\w+`). */
  culprit: string;
  /** A character that, repeated, makes the engine backtrack. */
  character: string;
  /** The same pattern without this cause, when scslre can rewrite it. */
  fix?: string;
}

const cache = new Map<string, BacktrackingRisk | undefined>();

/** The worst super-linear backtracking in a pattern (exponential first), if any. */
export function backtrackingRisk(source: string): BacktrackingRisk | undefined {
  if (cache.has(source)) return cache.get(source);
  let risk: BacktrackingRisk | undefined;
  try {
    const { reports } = analyse({ source, flags: "u" }, { reportTypes: { Move: false } });
    const worst = reports.find((r) => r.exponential) ?? reports[0];
    if (worst) risk = describe(worst);
  } catch {
    // Not a valid pattern: the validator reports that.
  }
  cache.set(source, risk);
  return risk;
}

function describe(report: Report): BacktrackingRisk {
  const culprit =
    report.type === "Self" ? report.parentQuant.raw : report.type === "Trade" ? `${report.startQuant.raw} and ${report.endQuant.raw}` : report.quant.raw;
  const fixed = report.fix();
  return { exponential: report.exponential, culprit, character: report.character.pick, ...(fixed ? { fix: fixed.source } : {}) };
}
