import type { Redis } from 'ioredis';
import type { Clock } from '../../clock';
import { parseOrThrow } from '../../validation';
import { newId } from '../queue';
import {
  RateKeySchema,
  RateObservationSchema,
  RateWindowSchema,
  missingSpend,
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
 * KEYS: log. ARGV: now, windowMs, limit, member, gcMs -> {1, 0} | {0, waitMs}
 */
const TAKE = new LuaScript(`
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return {1, 0}
end
local s = redis.call('ZRANGE', KEYS[1], n - limit, n - limit, 'WITHSCORES')
return {0, math.max(1, tonumber(s[2]) + window - now)}
`);

/** KEYS: log. ARGV: now, windowMs, spent, at, member prefix, gcMs */
const OBSERVE = new LuaScript(`
local now, window, spent = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local missing = spent - redis.call('ZCARD', KEYS[1])
for i = 1, missing do redis.call('ZADD', KEYS[1], ARGV[4], ARGV[5] .. i) end
if missing > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[6]) end
return missing
`);

export class RedisRate implements SharedRateBudget {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly clock: Clock,
  ) {}

  async take(key: string, window: RateWindow): Promise<RateDecision> {
    const { limit, windowMs } = parseOrThrow(RateWindowSchema, window, 'window');
    const log = this.keys.rate(parseOrThrow(RateKeySchema, key, 'key'));
    const args = [this.clock.now(), windowMs, limit, newId(), windowMs + GC_MARGIN_MS];
    const [ok, waitMs] = (await TAKE.run(this.redis, [log], args)) as [number, number];
    return { ok: ok === 1, waitMs };
  }

  async observe(key: string, raw: RateObservation): Promise<void> {
    const observation = parseOrThrow(RateObservationSchema, raw, 'observation');
    const log = this.keys.rate(parseOrThrow(RateKeySchema, key, 'key'));
    const now = this.clock.now();
    const spent = missingSpend(observation, 0);
    if (spent === 0) return;
    const args = [now, observation.windowMs, spent, phantomStamp(now, observation), `${newId()}:`, observation.windowMs + GC_MARGIN_MS];
    await OBSERVE.run(this.redis, [log], args);
  }
}
