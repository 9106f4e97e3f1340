/**
 * How tasks are laid out in Redis: the Lua scripts that read and change them in one step (so a
 * terminal status is never overwritten and a record never half-written), and a record as the
 * fields of its hash. redisTaskStore.ts runs them.
 */
import type { InputRequest } from "../../engine/context.js";
import type { TaskStatus } from "../../../shared/mcp.js";
import { isTerminal, type StoredTask, type TaskOutcome, type TaskRecord } from "../taskStore.js";

/**
 * KEYS: task, lease, owner index ('' for a task without owner: none), all, finished. ARGV: ttl, lease (0: none), expiresAt, id,
 * maxTasks, now, prefix, the record's field/value pairs. 0 when every kept task is running.
 */
export const CREATE = `
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', ARGV[6])
while redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[5]) do
  local oldest = redis.call('ZPOPMIN', KEYS[5])
  if #oldest == 0 then return 0 end
  redis.call('DEL', ARGV[7] .. 'task:' .. oldest[1])
  redis.call('ZREM', KEYS[4], oldest[1])
end
redis.call('HSET', KEYS[1], unpack(ARGV, 8))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
if tonumber(ARGV[2]) > 0 then redis.call('SET', KEYS[2], '1', 'PX', ARGV[2]) else redis.call('ZADD', KEYS[5], ARGV[3], ARGV[4]) end
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[4])
if KEYS[3] ~= '' then
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])
  if redis.call('PTTL', KEYS[3]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[3], ARGV[1]) end
end
return 1`;

const ENDED = `local function ended(s) return s == 'completed' or s == 'failed' or s == 'cancelled' end
`;

/** KEYS: task, lease, finished. ARGV: ifOrphaned, n, n field/value pairs (status first), fields to delete. */
export const TRANSITION = `${ENDED}
local status = redis.call('HGET', KEYS[1], 'status')
if not status or ended(status) then return false end
if ARGV[1] == '1' and redis.call('EXISTS', KEYS[2]) == 1 then return false end
local n = tonumber(ARGV[2])
local set = {}
for i = 1, 2 * n do set[i] = ARGV[2 + i] end
redis.call('HSET', KEYS[1], unpack(set))
for i = 3 + 2 * n, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
if ended(ARGV[4]) then
  redis.call('DEL', KEYS[2])
  redis.call('ZADD', KEYS[3], redis.call('HGET', KEYS[1], 'expiresAt'), redis.call('HGET', KEYS[1], 'id'))
end
return redis.call('HGETALL', KEYS[1])`;

/** KEYS: task, lease. The record and whether its lease is held. */
export const GET = `
local h = redis.call('HGETALL', KEYS[1])
if #h == 0 then return false end
return {h, redis.call('EXISTS', KEYS[2])}`;

/** KEYS: owner index. ARGV: now, prefix. The owner's tasks, the expired trimmed. */
export const LIST = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local h = redis.call('HGETALL', ARGV[2] .. 'task:' .. id)
  if #h == 0 then redis.call('ZREM', KEYS[1], id)
  else out[#out + 1] = {h, redis.call('EXISTS', ARGV[2] .. 'lease:' .. id)} end
end
return out`;

/** Fields that change (deleted when a change leaves them out). */
export const CHANGING = ["statusMessage", "outcome", "inputRequests"] as const;

/** The hash fields of a record. */
export function recordFields(task: TaskRecord): string[] {
  const fields = [
    "id",
    task.id,
    "era",
    task.era,
    "status",
    task.status,
    "createdAt",
    task.createdAt,
    "lastUpdatedAt",
    task.lastUpdatedAt,
    "ttlMs",
    String(task.ttlMs),
    "expiresAt",
    String(task.expiresAt),
  ];
  if (task.owner !== undefined) fields.push("owner", task.owner);
  if (task.statusMessage !== undefined) fields.push("statusMessage", task.statusMessage);
  if (task.outcome !== undefined) fields.push("outcome", JSON.stringify(task.outcome));
  if (task.inputRequests !== undefined) fields.push("inputRequests", JSON.stringify(task.inputRequests));
  return fields;
}

const STATUSES: readonly TaskStatus[] = ["working", "input_required", "completed", "failed", "cancelled"];

/** A GET or LIST entry: [hash, lease held]. */
export function stored(id: string | undefined, entry: unknown): StoredTask | undefined {
  if (!Array.isArray(entry) || entry.length !== 2) return undefined;
  const task = parseRecord(id, entry[0]);
  return task && { task, orphaned: !isTerminal(task.status) && Number(entry[1]) !== 1 };
}

/** A record's hash as recordFields writes it; a field may be missing (a hash written by another version, or half-read). */
interface TaskHash {
  readonly id?: string;
  readonly era?: string;
  readonly owner?: string;
  readonly status?: string;
  readonly statusMessage?: string;
  readonly createdAt?: string;
  readonly lastUpdatedAt?: string;
  readonly ttlMs?: string;
  readonly expiresAt?: string;
  readonly outcome?: string;
  readonly inputRequests?: string;
}

/** A hash as Redis answers it (a flat array, or a map under RESP3) as a record. */
export function parseRecord(id: string | undefined, reply: unknown): TaskRecord | undefined {
  const fields: Record<string, string> = {};
  if (Array.isArray(reply)) for (let i = 0; i + 1 < reply.length; i += 2) fields[String(reply[i])] = String(reply[i + 1]);
  else if (reply instanceof Map) for (const [k, v] of reply) fields[String(k)] = String(v);
  else return undefined;
  const h: TaskHash = fields;
  const taskId = id ?? h.id;
  const status = STATUSES.find((s) => s === h.status);
  if (taskId === undefined || status === undefined) return undefined;
  return {
    id: taskId,
    era: h.era === "modern" ? "modern" : "legacy",
    ...(h.owner === undefined ? {} : { owner: h.owner }),
    status,
    ...(h.statusMessage === undefined ? {} : { statusMessage: h.statusMessage }),
    createdAt: h.createdAt ?? "",
    lastUpdatedAt: h.lastUpdatedAt ?? "",
    ttlMs: Number(h.ttlMs),
    expiresAt: Number(h.expiresAt),
    // Written by this store (recordFields, transition): JSON of these very types.
    ...(h.outcome === undefined ? {} : { outcome: JSON.parse(h.outcome) as TaskOutcome }),
    ...(h.inputRequests === undefined ? {} : { inputRequests: JSON.parse(h.inputRequests) as Record<string, InputRequest> }),
  };
}
