import { createHash } from 'node:crypto';
import type { RedisClient } from './redis-client';

/**
 * A Lua script run by its SHA (EVALSHA), loaded on first use or after a server restart (NOSCRIPT).
 * Some scripts build key names inside Lua from a base passed in ARGV (a queue's entries, found as the
 * script runs). On Redis Cluster that is allowed for keys of the slot the script runs in, so every caller
 * passes a key of that slot as KEYS[1] (ioredis routes by it), and the key scheme (keys.ts) puts all the
 * keys one script touches under one hash tag.
 */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: RedisClient, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }

  /**
   * Runs the script and then `WAIT replicas timeoutMs` in one pipeline, on one connection to the node the
   * keys live on (WAIT counts the replicas that have this connection's writes); answers the script's
   * result and how many replicas confirmed.
   */
  async runThenWait(
    redis: RedisClient,
    keys: readonly string[],
    args: readonly (string | number)[],
    replicas: number,
    timeoutMs: number,
  ): Promise<{ result: unknown; confirmed: number }> {
    const attempt = async (bySha: boolean): Promise<{ result: unknown; confirmed: number } | 'noscript'> => {
      const pipeline = redis.pipeline();
      if (bySha) pipeline.evalsha(this.sha, keys.length, ...keys, ...args);
      else pipeline.eval(this.source, keys.length, ...keys, ...args);
      pipeline.call('WAIT', replicas, timeoutMs);
      const [script, wait] = (await pipeline.exec()) ?? [];
      if (script?.[0]) {
        if (bySha && isNoScript(script[0])) return 'noscript';
        throw script[0];
      }
      if (wait?.[0]) throw wait[0];
      return { result: script?.[1], confirmed: Number(wait?.[1] ?? 0) };
    };
    const first = await attempt(true);
    if (first !== 'noscript') return first;
    const second = await attempt(false);
    if (second === 'noscript') throw new Error('NOSCRIPT after EVAL');
    return second;
  }
}

function isNoScript(error: unknown): boolean {
  return String((error as Error)?.message).startsWith('NOSCRIPT');
}

/** Flat `[field, value, ...]` (HGETALL as Lua returns it) to a record. */
export function pairsToRecord(flat: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(flat)) return out;
  for (let i = 0; i + 1 < flat.length; i += 2) out[String(flat[i])] = String(flat[i + 1]);
  return out;
}
