/**
 * mcpgen's own checks of `notifications/tasks/status` (MCP 2025-11-25), run by `npm run
 * conformance` against the conformance server next to the official suites, whose only
 * status-notification scenario (`tasks-status-notifications`, about the 2026-07-28
 * `notifications/tasks`) is one they skip. Written from the spec text (see taskRules.ts), not from
 * any suite: two 2025-era sessions of the SDK v2 Client over Streamable HTTP record every message
 * the server sends them, and four tasks run to their ends.
 */
import { isDeepStrictEqual } from "node:util";
import { Client, StreamableHTTPClientTransport, type StandardSchemaV1 } from "@modelcontextprotocol/client";
import { lifecycleError, RELATED_TASK, STATUS_NOTIFICATION, TERMINAL, taskSchemaError, type TaskStatus } from "./taskRules.js";

export interface Check {
  name: string;
  passed: boolean;
  detail?: string;
}

type Params = Record<string, unknown>;
interface Notification {
  method: string;
  params: Params;
}
interface Session {
  client: Client;
  /** Every notification the server sent this session, in arrival order, as it was on the wire. */
  notifications: Notification[];
}
interface Journey {
  scenario: string;
  tool: string;
  arguments: Params;
  /** Cancel the task with tasks/cancel once it runs. */
  cancel?: boolean;
  /** The statuses the notifications should carry, one per change after the initial `working`. */
  expected: TaskStatus[];
}

const JOURNEYS: Journey[] = [
  { scenario: "slow_compute", tool: "slow_compute", arguments: { seconds: 0.3 }, expected: ["completed"] },
  { scenario: "cancelled", tool: "slow_compute", arguments: { seconds: 60 }, cancel: true, expected: ["cancelled"] },
  { scenario: "confirm_delete", tool: "confirm_delete", arguments: { filename: "a.txt" }, expected: ["input_required", "working", "completed"] },
  { scenario: "failing_job", tool: "failing_job", arguments: {}, expected: ["failed"] },
];
/** How long a task may take to end, and how long to listen after its terminal notification. */
const END_WITHIN_MS = 10_000;
const SETTLE_MS = 500;

// The 2025 task requests are not in SDK 2.4's typed request map: take the result as sent.
const RAW: StandardSchemaV1<unknown, unknown> = { "~standard": { version: 1, vendor: "mcpgen-conformance", validate: (value) => ({ value }) } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isObject = (value: unknown): value is Params => typeof value === "object" && value !== null && !Array.isArray(value);
const withoutMeta = ({ _meta: _, ...rest }: Params): Params => rest;

/** A 2025-era session that answers elicitation with a confirmation and records every notification. */
async function openSession(url: string, name: string): Promise<Session> {
  const notifications: Notification[] = [];
  const client = new Client({ name, version: "1.0.0" }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: "legacy" } });
  client.setRequestHandler("elicitation/create", async () => {
    await sleep(50);
    return { action: "accept", content: { confirm: true } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  if (client.getProtocolEra() !== "legacy") throw new Error(`${name} connected in the ${client.getProtocolEra()} era, not 2025-11-25`);
  // Tap the transport, so what is checked is the message as sent, before the SDK's handling.
  const deliver = transport.onmessage;
  transport.onmessage = (message, ...rest) => {
    const wire: unknown = message;
    if (isObject(wire) && !("id" in wire) && typeof wire.method === "string")
      notifications.push({ method: wire.method, params: isObject(wire.params) ? wire.params : {} });
    deliver?.(message, ...rest);
  };
  return { client, notifications };
}

const request = (session: Session, method: string, params: Params) => session.client.request({ method, params }, RAW);
const about = (session: Session, taskId: string) => session.notifications.filter((n) => n.params.taskId === taskId);

async function startTask(session: Session, tool: string, args: Params): Promise<Params> {
  const created = await request(session, "tools/call", { name: tool, arguments: args, task: { ttl: 60_000 } });
  if (!isObject(created) || !isObject(created.task) || typeof created.task.taskId !== "string")
    throw new Error(`tools/call answered no task: ${JSON.stringify(created)}`);
  return created.task;
}

async function untilEnded(session: Session, taskId: string): Promise<boolean> {
  for (const start = Date.now(); Date.now() - start < END_WITHIN_MS; await sleep(25)) {
    if (about(session, taskId).some((n) => TERMINAL.has(String(n.params.status)))) return true;
  }
  return false;
}

const check = (name: string, error: string | undefined): Check => (error === undefined ? { name, passed: true } : { name, passed: false, detail: error });
const firstError = (items: readonly Notification[], error: (n: Notification, i: number) => string | undefined) =>
  items.map((n, i) => error(n, i)).find((e) => e !== undefined);

/** Runs one task to its end and checks the notifications it brought. */
async function runJourney(session: Session, journey: Journey): Promise<{ checks: Check[]; taskId?: string }> {
  const s = journey.scenario;
  let task: Params;
  try {
    task = await startTask(session, journey.tool, journey.arguments);
  } catch (error) {
    return { checks: [{ name: `${s}: tools/call creates a task`, passed: false, detail: error instanceof Error ? error.message : String(error) }] };
  }
  const taskId = String(task.taskId);
  const checks: Check[] = [
    check(
      `${s}: tools/call answers a Task that begins working`,
      taskSchemaError(task) ?? (task.status === "working" ? undefined : `status ${String(task.status)}`),
    ),
  ];
  if (journey.cancel) {
    await sleep(100);
    await request(session, "tasks/cancel", { taskId });
  }
  const ended = await untilEnded(session, taskId);
  const got = await request(session, "tasks/get", { taskId });
  await sleep(SETTLE_MS);
  const seen = about(session, taskId);
  const statuses = seen.map((n) => String(n.params.status));
  const none = ended ? undefined : `no terminal notification within ${END_WITHIN_MS / 1000} s (received: ${JSON.stringify(statuses)})`;
  const nonEmpty = (error: string | undefined) => (seen.length === 0 ? "no notification about the task arrived" : error);

  checks.push(
    check(
      `${s}: every notification about the task is ${STATUS_NOTIFICATION}`,
      nonEmpty(firstError(seen, (n) => (n.method === STATUS_NOTIFICATION ? undefined : `a ${n.method} notification`))),
    ),
    check(
      `${s}: params are a 2025-11-25 Task`,
      nonEmpty(firstError(seen, (n, i) => taskSchemaError(n.params) && `notification ${i + 1}: ${taskSchemaError(n.params)}`)),
    ),
    check(
      `${s}: params carry no ${RELATED_TASK} _meta`,
      nonEmpty(firstError(seen, (n, i) => (isObject(n.params._meta) && RELATED_TASK in n.params._meta ? `notification ${i + 1} has it` : undefined))),
    ),
    check(`${s}: statuses follow the lifecycle and end terminal`, none ?? lifecycleError(statuses)),
    check(
      `${s}: one notification per change, working → ${journey.expected.join(" → ")}`,
      isDeepStrictEqual(statuses, journey.expected) ? undefined : `received ${statuses.join(" → ") || "nothing"}`,
    ),
    check(
      `${s}: the last notification equals tasks/get`,
      nonEmpty(
        none ??
          (isObject(got) && isDeepStrictEqual(withoutMeta(seen.at(-1)!.params), withoutMeta(got))
            ? undefined
            : `last ${JSON.stringify(seen.at(-1)?.params)}, tasks/get ${JSON.stringify(got)}`),
      ),
    ),
    check(
      `${s}: nothing after the terminal notification`,
      none ?? (TERMINAL.has(statuses.at(-1) ?? "") && statuses.filter((x) => TERMINAL.has(x)).length === 1 ? undefined : `received ${statuses.join(" → ")}`),
    ),
    check(`${s}: createdAt and ttl stay as created, lastUpdatedAt never goes back`, nonEmpty(timestampsError(task, seen))),
  );
  if (journey.tool === "confirm_delete") {
    // The input_required → working step is the client's answer arriving: the call's result shows it.
    const result = await request(session, "tasks/result", { taskId });
    const text = isObject(result) && Array.isArray(result.content) && isObject(result.content[0]) ? result.content[0].text : undefined;
    checks.push(
      check(`${s}: the client's answer to the elicitation reached the task`, text === "Deleted a.txt" ? undefined : `tasks/result: ${JSON.stringify(result)}`),
    );
  }
  return { checks, taskId };
}

function timestampsError(task: Params, seen: readonly Notification[]): string | undefined {
  let previous = Date.parse(String(task.lastUpdatedAt));
  return firstError(seen, ({ params }, i) => {
    if (params.createdAt !== task.createdAt) return `notification ${i + 1}: createdAt ${String(params.createdAt)}, created ${String(task.createdAt)}`;
    if (params.ttl !== task.ttl) return `notification ${i + 1}: ttl ${String(params.ttl)}, created with ${String(task.ttl)}`;
    const updated = Date.parse(String(params.lastUpdatedAt));
    if (!(updated >= previous)) return `notification ${i + 1}: lastUpdatedAt ${String(params.lastUpdatedAt)} is before the previous one`;
    previous = updated;
    return undefined;
  });
}

/** Runs the journeys on one session while a second session listens, and returns every check. */
export async function checkStatusNotifications(url: string): Promise<Check[]> {
  const first = await openSession(url, "mcpgen-status-first");
  const second = await openSession(url, "mcpgen-status-second");
  try {
    // The second session's own task first: proof that its stream delivers before it is asked to stay silent.
    const ownId = String((await startTask(second, "slow_compute", { seconds: 0.1 })).taskId);
    const ownArrived = await untilEnded(second, ownId);
    const checks: Check[] = [];
    const taskIds: string[] = [];
    for (const journey of JOURNEYS) {
      const { checks: more, taskId } = await runJourney(first, journey);
      checks.push(...more);
      if (taskId) taskIds.push(taskId);
    }
    const leaked = second.notifications.filter((n) => taskIds.includes(String(n.params.taskId)));
    checks.push(
      check(
        "second session: its own task's notifications reach it",
        ownArrived ? undefined : `no terminal notification for its task within ${END_WITHIN_MS / 1000} s`,
      ),
      check(
        "second session: none of the first session's notifications reach it",
        taskIds.length === 0
          ? "the first session created no task"
          : leaked.length === 0 && about(first, ownId).length === 0
            ? undefined
            : `${leaked.length} of the first session's reached the second, ${about(first, ownId).length} the other way`,
      ),
    );
    return checks;
  } finally {
    await Promise.allSettled([first.client.close(), second.client.close()]);
  }
}
