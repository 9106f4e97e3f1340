/** The report formats of `mcpgen check`, by name. */
import type { CheckResult } from "../run.js";
import { jsonReport } from "./json.js";
import { junitReport } from "./junit.js";
import { sarifReport } from "./sarif.js";
import { textReport } from "./text.js";

export const REPORT_FORMATS = { text: textReport, json: jsonReport, sarif: sarifReport, junit: junitReport } as const;

export type ReportFormat = keyof typeof REPORT_FORMATS;

export function report(result: CheckResult, format: ReportFormat): string {
  return REPORT_FORMATS[format](result);
}
