import type { RedisClient } from './redis-client';
import type { Clock } from '../../clock';
import { newId } from '../queue';
import {
  missingSpend,
  PLATFORM_LIMIT_TTL_MS,
  phantomStamp,
  type SharedRateBudget,
  type RateDecision,
  type RateObservation,
  type RateWindow,
} from '../rate-budget';
import { GC_MARGIN_MS, type RedisKeys } from './keys';
import { LuaScript } from './lua-script';

/**
 * The sliding-window log as a zset of grant times, trimmed and counted in one script. BullMQ's limiter is
 * not used: it throttles a worker pulling jobs from its own queue, while the API client and the proxy ask
 * "may I send this request now, and if not, when?" for calls that are not queue jobs, and need that answer
 * on the injected clock.
 *
 * The same rule as `decideTake`: the next slot comes once the window has room and `spacingMs` after the
 * latest grant; with spacing it is reserved (at most a window ahead), without it only a slot now is.
 *
 * The platform's reported limit (`effectiveWindow`) lowers the limit and the burst, and widens the spacing.
 *
 * KEYS: log, platform limit. ARGV: now, windowMs, limit, member, gcMs, spacingMs, burst -> {1, waitMs until the slot} | {0, waitMs}
 */
const TAKE = new LuaScript(`
local now, window, limit, spacing, burst = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[6]), tonumber(ARGV[7])
local reported = tonumber(redis.call('GET', KEYS[2]))
if reported and reported < limit then
  if spacing > 0 then spacing = math.max(spacing, math.ceil(window / reported)) end
  burst = math.max(1, math.floor(burst * reported / limit))
  limit = reported
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
-- ahead by more than a window: written before the clock was moved back (liveStamps)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '(' .. (now + window), '+inf')
local n = redis.call('ZCARD', KEYS[1])
local slot = now
if spacing > 0 and n >= burst and n > 0 then
  local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  slot = math.max(slot, tonumber(last[2]) + spacing)
end
if n >= limit then
  local s = redis.call('ZRANGE', KEYS[1], n - limit, n - limit, 'WITHSCORES')
  slot = math.max(slot, tonumber(s[2]) + window)
end
if slot > now and spacing == 0 then return {0, math.max(1, slot - now)} end
if slot - now > window then return {0, math.max(1, slot - now - window)} end
redis.call('ZADD', KEYS[1], slot, ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {1, slot - now}
`);

/** KEYS: log, platform limit. ARGV: now, windowMs, spent, at, member prefix, gcMs, platform limit (0: none), its ttl */
const OBSERVE = new LuaScript(`
local now, window, spent = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if tonumber(ARGV[7]) > 0 then redis.call('SET', KEYS[2], ARGV[7], 'PX', ARGV[8]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
-- ahead by more than a window: written before the clock was moved back (liveStamps)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '(' .. (now + window), '+inf')
local missing = spent - redis.call('ZCOUNT', KEYS[1], '-inf', now)
for i = 1, missing do redis.call('ZADD', KEYS[1], ARGV[4], ARGV[5] .. i) end
if missing > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[6]) end
return missing
`);

export class RedisRate implements SharedRateBudget {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly clock: Clock,
  ) {}

  async take(key: string, window: RateWindow): Promise<RateDecision> {
    const { limit, windowMs, spacingMs, burst } = window;
    const args = [this.clock.now(), windowMs, limit, newId(), windowMs + GC_MARGIN_MS, spacingMs ?? 0, burst ?? 1];
    const [ok, waitMs] = (await TAKE.run(this.redis, [this.keys.rate(key), this.keys.rateLimit(key)], args)) as [number, number];
    return { ok: ok === 1, waitMs };
  }

  async observe(key: string, observation: RateObservation): Promise<void> {
    const now = this.clock.now();
    const spent = missingSpend(observation, 0);
    const platformLimit = observation.platformLimit ?? 0;
    if (spent === 0 && platformLimit === 0) return;
    const at = phantomStamp(now, observation);
    const args = [now, observation.windowMs, spent, at, `${newId()}:`, observation.windowMs + GC_MARGIN_MS, platformLimit, PLATFORM_LIMIT_TTL_MS];
    await OBSERVE.run(this.redis, [this.keys.rate(key), this.keys.rateLimit(key)], args);
  }
}
