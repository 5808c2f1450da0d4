import { LuaScript } from './lua-script';

/**
 * Lua shared by the queue scripts. `q` is the queue's key prefix. The `ready` zset holds, per target with
 * live entries, when its head can next be handed out (its not-before time, or its lease's end while
 * leased); reserving takes the earliest due target, so one in flight per target and FIFO within it come
 * from the structure itself.
 */
const COMMON = `
local function ekey(q, id) return q .. 'e:' .. id end
local function tkey(q, target) return q .. 't:' .. target end
local function refresh(q, target)
  local head = redis.call('LINDEX', tkey(q, target), 0)
  if not head then redis.call('ZREM', q .. 'ready', target) return end
  local h = redis.call('HMGET', ekey(q, head), 'nb', 'lu', 'lt')
  local at = tonumber(h[1])
  if h[3] and h[3] ~= '' then at = math.max(at, tonumber(h[2])) end
  redis.call('ZADD', q .. 'ready', at, target)
end
local function holds(q, id, token)
  local h = redis.call('HMGET', ekey(q, id), 'lt', 'dead')
  return h[1] == token and h[2] == '0'
end
local function dead(q, id, reason)
  local ek = ekey(q, id)
  local target = redis.call('HGET', ek, 'target')
  redis.call('LREM', tkey(q, target), 1, id)
  redis.call('HSET', ek, 'dead', '1', 'reason', reason, 'lu', 0, 'lt', '')
  redis.call('ZREM', q .. 'live', id)
  redis.call('ZADD', q .. 'dead', redis.call('HGET', ek, 'seq'), id)
  refresh(q, target)
end
local function enqueue(q, id, target, payload, now, nb)
  local ek = ekey(q, id)
  if redis.call('EXISTS', ek) == 1 then return false end
  local seq = redis.call('INCR', q .. 'seq')
  redis.call('HSET', ek, 'id', id, 'target', target, 'payload', payload, 'seq', seq, 'nb', nb, 'lu', 0, 'lt', '',
    'att', 0, 'err', '', 'reason', '', 'enq', now, 'dead', '0')
  redis.call('RPUSH', tkey(q, target), id)
  redis.call('ZADD', q .. 'live', seq, id)
  refresh(q, target)
  return true
end
`;

const script = (body: string): LuaScript => new LuaScript(`${COMMON}\n${body}`);

/**
 * ARGV: q, id, target, payload, now, notBefore, touch -> 1, or 0 when the id exists. With touch '1' (the
 * caller waits for replicas), an existing entry is written again unchanged, so that this connection's WAIT
 * also covers the write that made it (another connection's, perhaps never confirmed).
 */
export const ENQUEUE = script(`
if enqueue(ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]) then return 1 end
if ARGV[7] == '1' then redis.call('HSET', ekey(ARGV[1], ARGV[2]), 'id', ARGV[2]) end
return 0
`);

/**
 * The inbox's accept of a batch of deliveries (those received in one event-loop turn): for each, in order,
 * both dedupe keys checked and set and the entry enqueued, all in one atomic step (a delivery twice in one
 * batch: the second is the duplicate).
 * ARGV: q, now, expiresAt, gcMs, touch, then per delivery: deliveryKey, dedupeKey ('' for none), id, payload
 * -> {1, id} or {0, 'delivery' | 'dedupe_key'} per delivery, flattened. With touch '1' (the caller waits
 * for replicas), a dedupe key found is written again unchanged, so that this connection's WAIT also covers
 * the accept that set it (another replica's, perhaps answered 503 when its WAIT fell short).
 */
export const ACCEPT = script(`
local q, now, expiresAt, gcMs, touch = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5] == '1'
local function seen(key)
  local v = redis.call('GET', key)
  local live = v and tonumber(v) > now
  if live and touch then redis.call('SET', key, v, 'KEEPTTL') end
  return live
end
local out = {}
for b = 6, #ARGV, 4 do
  local dk, kk, id = ARGV[b], ARGV[b + 1], ARGV[b + 2]
  if seen(dk) then
    out[#out + 1] = 0
    out[#out + 1] = 'delivery'
  elseif kk ~= '' and seen(kk) then
    out[#out + 1] = 0
    out[#out + 1] = 'dedupe_key'
  else
    redis.call('SET', dk, expiresAt, 'PX', gcMs)
    if kk ~= '' then redis.call('SET', kk, expiresAt, 'PX', gcMs) end
    enqueue(q, id, id, ARGV[b + 3], ARGV[2], ARGV[2])
    out[#out + 1] = 1
    out[#out + 1] = id
  end
end
return out
`);

/**
 * ARGV: q, now, leaseMs, max, maxLost, lostReason, token1..tokenMax -> the leased entries' hashes (flat
 * field/value arrays). An entry whose last `maxLost` leases ran out unanswered is dead-lettered instead.
 */
export const RESERVE = script(`
local q, now, leaseMs, max, maxLost = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local out = {}
local spins = 0
while #out < max and spins < max + 20 do
  spins = spins + 1
  local r = redis.call('ZRANGEBYSCORE', q .. 'ready', '-inf', now, 'LIMIT', 0, 1)
  if #r == 0 then break end
  local target = r[1]
  local id = redis.call('LINDEX', tkey(q, target), 0)
  if not id then
    redis.call('ZREM', q .. 'ready', target)
  else
    local ek = ekey(q, id)
    -- a token still set: the previous lease ran out with no answer from its holder
    local h = redis.call('HMGET', ek, 'lt', 'lost')
    local lost = 0
    if h[1] and h[1] ~= '' then lost = (tonumber(h[2]) or 0) + 1 end
    redis.call('HSET', ek, 'lu', now + leaseMs, 'lt', ARGV[6 + #out + 1], 'lost', lost)
    redis.call('HINCRBY', ek, 'att', 1)
    if lost >= maxLost then
      dead(q, id, ARGV[6])
    else
      -- the target comes back when this lease runs out (or sooner, when completed or retried)
      redis.call('ZADD', q .. 'ready', now + leaseMs, target)
      out[#out + 1] = redis.call('HGETALL', ek)
    end
  end
end
return out
`);

/** ARGV: q, id, token -> 1 | 0 */
export const COMPLETE = script(`
local q, id = ARGV[1], ARGV[2]
if not holds(q, id, ARGV[3]) then return 0 end
local target = redis.call('HGET', ekey(q, id), 'target')
redis.call('LREM', tkey(q, target), 1, id)
redis.call('DEL', ekey(q, id))
redis.call('ZREM', q .. 'live', id)
refresh(q, target)
return 1
`);

/** ARGV: q, id, token, notBefore, error -> 1 | 0 */
export const RETRY = script(`
local q, id = ARGV[1], ARGV[2]
if not holds(q, id, ARGV[3]) then return 0 end
redis.call('HSET', ekey(q, id), 'nb', ARGV[4], 'err', ARGV[5], 'lu', 0, 'lt', '')
refresh(q, redis.call('HGET', ekey(q, id), 'target'))
return 1
`);

/** As RETRY, and the hand-out given back is not counted. ARGV: q, id, token, notBefore, note -> 1 | 0 */
export const DEFER = script(`
local q, id = ARGV[1], ARGV[2]
if not holds(q, id, ARGV[3]) then return 0 end
local ek = ekey(q, id)
local att = tonumber(redis.call('HGET', ek, 'att') or '0')
redis.call('HSET', ek, 'nb', ARGV[4], 'err', ARGV[5], 'lu', 0, 'lt', '', 'att', math.max(att - 1, 0))
refresh(q, redis.call('HGET', ek, 'target'))
return 1
`);

/**
 * As DEFER, and out of its target's line: the entry goes to the end of another target's line, and its
 * old line's next entry becomes due. ARGV: q, id, token, target, notBefore, note -> 1 | 0
 */
export const SET_ASIDE = script(`
local q, id = ARGV[1], ARGV[2]
if not holds(q, id, ARGV[3]) then return 0 end
local ek = ekey(q, id)
local old = redis.call('HGET', ek, 'target')
local att = tonumber(redis.call('HGET', ek, 'att') or '0')
redis.call('LREM', tkey(q, old), 1, id)
redis.call('RPUSH', tkey(q, ARGV[4]), id)
redis.call('HSET', ek, 'target', ARGV[4], 'nb', ARGV[5], 'err', ARGV[6], 'lu', 0, 'lt', '', 'att', math.max(att - 1, 0))
refresh(q, old)
refresh(q, ARGV[4])
return 1
`);

/** ARGV: q, id, token, reason -> 1 | 0 */
export const DEAD_LETTER = script(`
local q, id = ARGV[1], ARGV[2]
if not holds(q, id, ARGV[3]) then return 0 end
dead(q, id, ARGV[4])
return 1
`);

/** ARGV: q, id, token, leaseUntil -> 1 | 0 */
export const EXTEND = script(`
local q, id = ARGV[1], ARGV[2]
if not holds(q, id, ARGV[3]) then return 0 end
redis.call('HSET', ekey(q, id), 'lu', ARGV[4])
refresh(q, redis.call('HGET', ekey(q, id), 'target'))
return 1
`);

/** Dead: back at the end of its line. Waiting: due now. ARGV: q, id, now -> 1 | 0 (missing or leased) */
export const REQUEUE = script(`
local q, id, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
local ek = ekey(q, id)
local h = redis.call('HMGET', ek, 'dead', 'lt', 'lu', 'nb', 'target')
if not h[1] then return 0 end
local target = h[5]
if h[1] == '1' then
  local seq = redis.call('INCR', q .. 'seq')
  redis.call('HSET', ek, 'dead', '0', 'reason', '', 'att', 0, 'nb', now, 'seq', seq)
  redis.call('ZREM', q .. 'dead', id)
  redis.call('ZADD', q .. 'live', seq, id)
  redis.call('RPUSH', tkey(q, target), id)
elseif h[2] ~= '' and tonumber(h[3]) > now then
  return 0
else
  redis.call('HSET', ek, 'nb', math.min(tonumber(h[4]), now))
end
refresh(q, target)
return 1
`);

/** ARGV: q, id, now -> 1 | 0 (missing or leased) */
export const DROP = script(`
local q, id, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
local ek = ekey(q, id)
local h = redis.call('HMGET', ek, 'dead', 'lt', 'lu', 'target')
if not h[1] then return 0 end
if h[1] == '1' then
  redis.call('DEL', ek)
  redis.call('ZREM', q .. 'dead', id)
  return 1
end
if h[2] ~= '' and tonumber(h[3]) > now then return 0 end
redis.call('LREM', tkey(q, h[4]), 1, id)
redis.call('DEL', ek)
redis.call('ZREM', q .. 'live', id)
refresh(q, h[4])
return 1
`);
