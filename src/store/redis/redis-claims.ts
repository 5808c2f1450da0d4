import type { RedisClient } from './redis-client';
import type { Clock } from '../../clock';
import type { BackendClaims } from '../backend';
import { GC_MARGIN_MS, type RedisKeys } from './keys';
import { LuaScript } from './lua-script';

// a claim's value is "<expiresAt> <owner>"; expiry is judged by the injected clock (ARGV now)
const COMMON = `
local v = redis.call('GET', KEYS[1])
local now = tonumber(ARGV[1])
local exp, owner = 0, ''
if v then
  local sep = string.find(v, ' ', 1, true)
  exp, owner = tonumber(string.sub(v, 1, sep - 1)), string.sub(v, sep + 1)
end
local live = exp > now
`;

/** KEYS: claim. ARGV: now, value, gcMs */
const TAKE = new LuaScript(`${COMMON}
if live then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`);

/** KEYS: claim. ARGV: now, value, gcMs, owner */
const RENEW = new LuaScript(`${COMMON}
if not live or owner ~= ARGV[4] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`);

/** KEYS: claim. ARGV: now, owner */
const RELEASE = new LuaScript(`${COMMON}
if not live or owner ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
return 1`);

/**
 * Claims as keys holding "<expiresAt> <owner>", judged on the injected clock. Replicas run on several
 * hosts, so a holder's process cannot be checked from here: a lock lasts until its TTL, and its holder
 * keeps it short and renews it.
 */
export class RedisClaims implements BackendClaims {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly owner: string,
    private readonly clock: Clock,
  ) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    return (await TAKE.run(this.redis, [this.keyOf(key)], this.args(ttlMs))) === 1;
  }

  async renew(key: string, ttlMs: number): Promise<boolean> {
    return (await RENEW.run(this.redis, [this.keyOf(key)], [...this.args(ttlMs), this.owner])) === 1;
  }

  async release(key: string): Promise<boolean> {
    return (await RELEASE.run(this.redis, [this.keyOf(key)], [this.clock.now(), this.owner])) === 1;
  }

  private keyOf(key: string): string {
    return this.keys.claim(key);
  }

  private args(ttlMs: number): (string | number)[] {
    const now = this.clock.now();
    return [now, `${now + ttlMs} ${this.owner}`, ttlMs + GC_MARGIN_MS];
  }
}
