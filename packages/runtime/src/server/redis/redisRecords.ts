/**
 * How tasks are laid out in Redis: the Lua scripts that read and change them in one step (so a
 * terminal status is never overwritten and a record never half-written), and a record as the
 * fields of its hash. redisTaskStore.ts runs them.
 *
 * Keys, under the store's prefix P (scripts reach them through P: not for Redis Cluster):
 * - `P task:<id>`: the record, a hash expiring with the task's ttl (PEXPIRE);
 * - `P lease:<id>`: set while the process running the task renews it;
 * - `P all`, `P finished`: every kept task and the ended ones, scored by expiry (µs, Redis's
 *   clock, unique in `all`); `P owner:<owner>`: the owner's tasks, the same scores (tasks/list);
 *   `P done:<owner>`: the owner's ended ones (`P done:` for tasks whose caller nothing
 *   identifies); `P owners` (id -> owner), so a task whose hash has expired is still forgotten
 *   from its owner's indexes;
 * - `P sizes` (id -> bytes of its outcome) and `P bytes` (their sum): the results kept;
 *   `P obytes` (owner -> bytes of its outcomes): each owner's share of them.
 *
 * Every decision that depends on the time (what has expired, the expiry written) takes Redis's
 * clock (TIME), never a replica's: replicas whose clocks disagree keep one set of bounds.
 * Every script checks its arguments before it writes anything, so a bad argument cannot leave
 * half a task behind; Redis 5 or later runs scripts that call TIME and then write.
 */
import type { InputRequest } from "../engine/parts.js";
import type { TaskStatus } from "../../shared/mcp.js";
import type { StoredTask, TaskOutcome, TaskRecord } from "../engine/parts.js";
import { isTerminal } from "../tasks/taskStore.js";

/** What every script starts with: the prefix (ARGV[1]), and how arguments are checked and written. */
const BASE = `
local P = ARGV[1]
local function ended(s) return s == 'completed' or s == 'failed' or s == 'cancelled' end
-- A whole number written in decimal digits (at most 16: exact as a Lua number), else nil.
local function whole(s)
  if type(s) ~= 'string' or #s == 0 or #s > 16 or not string.match(s, '^%d+$') then return nil end
  return tonumber(s)
end
-- Numbers as Redis arguments: Lua would print large ones as 1.7e+15.
local function str(n) return string.format('%.0f', n) end
`;

/** Redis's clock, and how tasks are forgotten (the scripts that evict or trim). */
const FORGETTING = `
local function now_us()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end
-- The task's owner ('': nobody in particular); the hash is asked only for a task an older version wrote.
local function owner_of(id)
  return redis.call('HGET', P .. 'owners', id) or redis.call('HGET', P .. 'task:' .. id, 'owner') or ''
end
local function forget(id)
  local owner = owner_of(id)
  if owner ~= '' then redis.call('ZREM', P .. 'owner:' .. owner, id) end
  redis.call('ZREM', P .. 'done:' .. owner, id)
  redis.call('HDEL', P .. 'owners', id)
  redis.call('DEL', P .. 'task:' .. id, P .. 'lease:' .. id)
  redis.call('ZREM', P .. 'all', id)
  redis.call('ZREM', P .. 'finished', id)
  local size = redis.call('HGET', P .. 'sizes', id)
  if size then
    redis.call('HDEL', P .. 'sizes', id)
    redis.call('DECRBY', P .. 'bytes', size)
    if redis.call('HINCRBY', P .. 'obytes', owner, -tonumber(size)) <= 0 then redis.call('HDEL', P .. 'obytes', owner) end
  end
end
-- The tasks past their expiry leave every index (their hashes have expired with them), at most
-- 1,000 a call so that no script holds Redis long; the rest go with the next calls, and counts
-- leave them out meanwhile (live).
local function trim(now)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'all', '-inf', str(now), 'LIMIT', 0, 1000)) do forget(id) end
end
-- The tasks of an index that have not expired.
local function live(index, now)
  return redis.call('ZCOUNT', index, '(' .. str(now), '+inf')
end
-- Evicts the finished task of \`pool\` that expires first; false when it has none.
local function evict_from(pool)
  local oldest = redis.call('ZRANGE', pool, 0, 0)
  if #oldest == 0 then return false end
  forget(oldest[1])
  return true
end
-- Makes room for \`owner\`: its own finished task goes first, then one of nobody in particular, then anyone's.
local function evict_for(owner)
  return evict_from(P .. 'done:' .. owner) or evict_from(P .. 'done:') or evict_from(P .. 'finished')
end
`;

/** A record without its outcome and questions (tasks/list, a summary tasks/get). */
const SUMMARY = `
local FIELDS = {'id', 'era', 'owner', 'status', 'statusMessage', 'createdAt', 'lastUpdatedAt', 'ttlMs', 'expiresAt'}
-- As field/value pairs; nil when there is none.
local function summary(key)
  local values = redis.call('HMGET', key, unpack(FIELDS))
  if not values[4] then return nil end
  local h = {}
  for i, field in ipairs(FIELDS) do
    if values[i] then h[#h + 1] = field; h[#h + 1] = values[i] end
  end
  return h
end
`;

/**
 * ARGV: prefix, ttl (ms), lease (ms, 0: none), maxTasks, maxTasksPerOwner, id, owner ('': none),
 * the record's field/value pairs (expiresAt is the script's: Redis's clock plus the ttl). 1 when
 * created; 0 when every kept task is running; 2 when every task kept for the owner is.
 */
export const CREATE = `${BASE}${FORGETTING}
local ttl, lease, max, per = whole(ARGV[2]), whole(ARGV[3]), whole(ARGV[4]), whole(ARGV[5])
local id, owner = ARGV[6], ARGV[7]
if not ttl or ttl < 1 or not lease or not max or max < 1 or not per or per < 1 or #ARGV < 9 or (#ARGV - 7) % 2 ~= 0 then
  return redis.error_reply('ERR mcpgen create: invalid arguments')
end
local now = now_us()
trim(now)
-- (A share as large as the whole is the whole: maxTasks says it.)
if owner ~= '' and per < max then
  while live(P .. 'owner:' .. owner, now) >= per do
    if not evict_from(P .. 'done:' .. owner) then return 2 end
  end
end
while live(P .. 'all', now) >= max do
  if not evict_for(owner) then return 0 end
end
-- A score no other kept task has: pages of tasks/list resume after a score.
local expires = now + ttl * 1000
while redis.call('ZCOUNT', P .. 'all', str(expires), str(expires)) > 0 do expires = expires + 1 end
local task = P .. 'task:' .. id
redis.call('HSET', task, 'expiresAt', str(math.floor(expires / 1000)), unpack(ARGV, 8))
redis.call('PEXPIRE', task, ttl)
-- An index lives as long as its last task (trim empties it sooner).
local function index(key)
  redis.call('ZADD', key, str(expires), id)
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
if lease > 0 then redis.call('SET', P .. 'lease:' .. id, '1', 'PX', lease) else
  redis.call('ZADD', P .. 'finished', str(expires), id)
  index(P .. 'done:' .. owner)
end
redis.call('ZADD', P .. 'all', str(expires), id)
-- A task without owner ('': nothing identifies its caller) is in no owner's index.
if owner ~= '' then
  redis.call('HSET', P .. 'owners', id, owner)
  index(P .. 'owner:' .. owner)
end
return 1`;

/**
 * ARGV: prefix, id, ifOrphaned ('0' or '1'), n, maxStoredResultBytes, maxStoredResultBytesPerOwner,
 * n field/value pairs (status among them), fields to delete. A terminal status with an outcome
 * first makes room for it: the owner's own finished tasks that expire first go until its outcomes
 * fit in its share, then finished tasks (the owner's, nobody's, anyone's) until all outcomes fit
 * in maxStoredResultBytes. The record's fixed fields when written; false when the task is gone or
 * has ended.
 */
export const TRANSITION = `${BASE}${FORGETTING}
local id, n, max, per = ARGV[2], whole(ARGV[4]), whole(ARGV[5]), whole(ARGV[6])
if not n or n < 1 or not max or not per or (ARGV[3] ~= '0' and ARGV[3] ~= '1') or #ARGV < 6 + 2 * n then
  return redis.error_reply('ERR mcpgen transition: invalid arguments')
end
local set, size, new = {}, 0, nil
for i = 1, n do
  local field, value = ARGV[5 + 2 * i], ARGV[6 + 2 * i]
  set[#set + 1] = field
  set[#set + 1] = value
  if field == 'status' then new = value end
  if field == 'outcome' then size = #value end
end
if (new ~= 'working' and new ~= 'input_required' and not ended(new)) or (size > 0 and not ended(new)) then
  return redis.error_reply('ERR mcpgen transition: invalid status (an outcome comes with an end)')
end
local task = P .. 'task:' .. id
-- Before an outcome is kept, what has expired goes (this task too, when its time is up: then it is gone).
if size > 0 then trim(now_us()) end
local status = redis.call('HGET', task, 'status')
if not status or ended(status) then return false end
if ARGV[3] == '1' and redis.call('EXISTS', P .. 'lease:' .. id) == 1 then return false end
local owner = owner_of(id)
if size > 0 then
  -- Room for this outcome: in the owner's share, then overall.
  if owner ~= '' then
    while (tonumber(redis.call('HGET', P .. 'obytes', owner)) or 0) + size > per do
      if not evict_from(P .. 'done:' .. owner) then break end
    end
  end
  while (tonumber(redis.call('GET', P .. 'bytes')) or 0) + size > max do
    if not evict_for(owner) then break end
  end
end
redis.call('HSET', task, unpack(set))
for i = 7 + 2 * n, #ARGV do redis.call('HDEL', task, ARGV[i]) end
if ended(new) then
  redis.call('DEL', P .. 'lease:' .. id)
  local score = redis.call('ZSCORE', P .. 'all', id) or str(tonumber(redis.call('HGET', task, 'expiresAt')) * 1000)
  redis.call('ZADD', P .. 'finished', score, id)
  local done = P .. 'done:' .. owner
  redis.call('ZADD', done, score, id)
  local left = redis.call('PTTL', task)
  if redis.call('PTTL', done) < left then redis.call('PEXPIRE', done, left) end
  if size > 0 then
    redis.call('HSET', P .. 'sizes', id, size)
    redis.call('INCRBY', P .. 'bytes', size)
    redis.call('HINCRBY', P .. 'obytes', owner, size)
  end
end
return redis.call('HMGET', task, 'id', 'era', 'owner', 'createdAt', 'ttlMs', 'expiresAt')`;

/** ARGV: prefix, id. Forgets the task (a creation whose answer never came). */
export const FORGET = `${BASE}${FORGETTING}
forget(ARGV[2])
return 1`;

/** ARGV: prefix, id, summary ('1': without outcome and questions). The record and whether its lease is held. */
export const GET = `${BASE}${SUMMARY}
local task = P .. 'task:' .. ARGV[2]
local h
if ARGV[3] == '1' then h = summary(task) else
  h = redis.call('HGETALL', task)
  if #h == 0 then h = nil end
end
if not h then return false end
return {h, redis.call('EXISTS', P .. 'lease:' .. ARGV[2])}`;

/**
 * ARGV: prefix, owner, limit, after (a score, or '' for the first page). The owner's tasks
 * scored after `after`, at most `limit`, as summaries with their lease and score, and the score
 * the next page starts after ('' when this is the last page). Expired tasks leave the index.
 */
export const LIST = `${BASE}${FORGETTING}${SUMMARY}
local limit, after = whole(ARGV[3]), ARGV[4]
if not limit or limit < 1 or limit > 1000 or (after ~= '' and not whole(after)) then
  return redis.error_reply('ERR mcpgen list: invalid arguments')
end
local index = P .. 'owner:' .. ARGV[2]
redis.call('ZREMRANGEBYSCORE', index, '-inf', str(now_us()))
local min = after == '' and '-inf' or '(' .. after
local out, gone, next, last, offset = {}, {}, '', nil, 0
while next == '' do
  local batch = redis.call('ZRANGEBYSCORE', index, min, '+inf', 'WITHSCORES', 'LIMIT', offset, limit + 1)
  if #batch == 0 then break end
  offset = offset + #batch / 2
  for i = 1, #batch, 2 do
    local id = batch[i]
    local h = summary(P .. 'task:' .. id)
    if not h then gone[#gone + 1] = id
    elseif #out == limit then next = last; break
    else
      out[#out + 1] = {h, redis.call('EXISTS', P .. 'lease:' .. id)}
      last = batch[i + 1]
    end
  end
end
for _, id in ipairs(gone) do redis.call('ZREM', index, id) end
return {out, next}`;

/** Fields that change (deleted when a change leaves them out). */
export const CHANGING = ["statusMessage", "outcome", "inputRequests"] as const;

/** The hash fields of a new record (its expiresAt is the create script's). */
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
  ];
  if (task.owner !== undefined) fields.push("owner", task.owner);
  if (task.statusMessage !== undefined) fields.push("statusMessage", task.statusMessage);
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
function parseRecord(id: string | undefined, reply: unknown): TaskRecord | undefined {
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

/** The fixed fields the transition script answers (id, era, owner, createdAt, ttlMs, expiresAt), as a record's. */
export function parseFixed(reply: unknown): Pick<TaskRecord, "id" | "era" | "owner" | "createdAt" | "ttlMs" | "expiresAt"> | undefined {
  // The owner is nil (no field) for a task nothing identifies the caller of.
  if (!Array.isArray(reply) || reply.length !== 6 || typeof reply[0] !== "string") return undefined;
  return {
    id: reply[0],
    era: reply[1] === "modern" ? "modern" : "legacy",
    ...(typeof reply[2] === "string" ? { owner: reply[2] } : {}),
    createdAt: String(reply[3] ?? ""),
    ttlMs: Number(reply[4]),
    expiresAt: Number(reply[5]),
  };
}

/** A LIST reply: its entries, and the score the next page starts after. */
export function parsePage(reply: unknown): { entries: unknown[]; next?: number } {
  if (!Array.isArray(reply) || reply.length !== 2 || !Array.isArray(reply[0])) return { entries: [] };
  const next = String(reply[1] ?? "");
  return { entries: reply[0], ...(next === "" ? {} : { next: Number(next) }) };
}
