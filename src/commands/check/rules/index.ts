/**
 * Runs every rule over the events of a log, in order, and collects the findings. Memory stays
 * bounded on any log: the pairer's and the rules' own maps are capped, and at most
 * MAX_KEPT_PER_RULE findings of each rule are kept (the others are counted).
 */
import { ajvValidators } from "@mcpgen/runtime/codegen";
import type { ServerDefinition } from "@mcpgen/runtime/shared";
import type { Finding, LogEvent } from "../model.js";
import { Pairer, type Paired } from "../pair/pairer.js";
import { Catalog } from "./catalog.js";
import type { RuleContext } from "./context.js";
import { checkEnvelope } from "./envelope.js";
import { checkFlow, endFlow } from "./flow.js";
import { checkHttp, Eras } from "./http.js";
import { checkLoggedMethod, checkMethod } from "./methods.js";
import { checkParams, checkUnlistedResource } from "./params.js";
import { ProtocolRules } from "./protocol.js";
import { isBusinessFailure, ResultRules } from "./results.js";
import { checkResultShape } from "./shapes.js";
import { checkSpecShape } from "./spec.js";
import { RULES, type RuleId } from "./table.js";

export const MAX_KEPT_PER_RULE = 1000;

/** Rules that already say what is wrong with a message's shape: when one fires, the spec-shape finding would repeat it. */
const SHAPE_RULES: ReadonlySet<RuleId> = new Set([
  "unreadable-line",
  "jsonrpc-version",
  "response-shape",
  "error-object",
  "notification-with-id",
  "misnamed-param",
  "result-shape",
  "result-as-notification",
]);

const LIST_METHODS = new Set(["tools/list", "resources/list", "resources/templates/list", "prompts/list"]);

export class Checker {
  readonly findings: Finding[] = [];
  /** Findings per rule, kept or not. */
  readonly counts = new Map<RuleId, number>();
  messages = 0;
  private readonly pairer = new Pairer();
  private readonly eras = new Eras();
  private readonly results = new ResultRules();
  private readonly protocol = new ProtocolRules();
  private readonly ctx: RuleContext;
  private lastTime: number | undefined;
  /** The rules that fired on the message being judged. */
  private readonly fired = new Set<RuleId>();

  constructor(
    private readonly file: string,
    definitions: readonly ServerDefinition[] = [],
    /** The client capabilities `pull` declared, when every manifest was pulled (manifests.ts). */
    pulledWith?: Record<string, unknown>,
  ) {
    const catalog = new Catalog(definitions, pulledWith);
    const validators = ajvValidators(definitions.find((d) => d.patterns)?.patterns);
    this.ctx = {
      catalog,
      validators,
      report: (rule, line, id, message, fix) => {
        this.fired.add(rule);
        const count = (this.counts.get(rule) ?? 0) + 1;
        this.counts.set(rule, count);
        if (count > MAX_KEPT_PER_RULE) return;
        const info = RULES[rule];
        this.findings.push({
          rule,
          severity: info.severity,
          file: this.file,
          line,
          ...(typeof id === "string" || typeof id === "number" || id === null ? { id } : {}),
          message,
          fix: fix ?? info.fix,
        });
      },
    };
  }

  /** Judges one event; gives the paired message (for explain), if it was one. */
  add(event: LogEvent): Paired | undefined {
    if (event.time !== undefined) this.lastTime = event.time;
    if (event.kind === "note") {
      this.pairer.note(event);
      if (event.unreadable) this.ctx.report("unreadable-line", event.line, undefined, `${event.note}${event.text ? `: ${event.text}` : ""}`);
      return undefined;
    }
    if (event.kind === "server-log") {
      this.messages++;
      const { log } = event;
      checkLoggedMethod(log.method, event.line, log.id, this.ctx);
      if (log.method === "tools/call" && log.outcome === "protocol-error" && log.error && isBusinessFailure(log.error.code, log.error.message))
        this.ctx.report(
          "business-error-as-protocol-error",
          event.line,
          log.id,
          `tools/call ${log.name ?? ""} answered error ${String(log.error.code)} ${JSON.stringify(log.error.message)}: a business failure sent as a protocol error`,
        );
      return undefined;
    }
    this.messages++;
    this.fired.clear();
    const p = this.pairer.add(event);
    this.eras.note(p);
    if (p.shape.kind === "request" && event.from === "client") this.ctx.catalog.clientRequest(p.shape.method, p.shape.params);
    checkEnvelope(p, this.ctx);
    checkFlow(p, this.ctx);
    checkMethod(p, this.ctx);
    checkParams(p, this.ctx);
    checkHttp(p, this.ctx, this.eras);
    const revision = this.eras.specRevisionOf(p);
    this.protocol.check(p, revision, this.ctx);
    this.protocol.cancelled(p, this.ctx);
    if (p.shape.kind === "response" && p.request && LIST_METHODS.has(p.request.method) && p.shape.hasResult)
      this.ctx.catalog.learn(p.request.method, p.shape.result);
    checkUnlistedResource(p, this.ctx);
    checkResultShape(p, this.ctx);
    this.results.check(p, this.ctx);
    let shaped = false;
    for (const rule of this.fired) shaped ||= SHAPE_RULES.has(rule);
    if (!shaped) checkSpecShape(p, revision, this.ctx);
    return p;
  }

  /** The rules that wait for the end of the log; then the findings, by line. */
  end(): Finding[] {
    endFlow(this.pairer, this.ctx, this.lastTime);
    this.results.end(this.ctx);
    return this.findings.sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
  }
}
