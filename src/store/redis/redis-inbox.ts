import type { Redis } from 'ioredis';
import type { Clock } from '../../clock';
import { parseOrThrow } from '../../validation';
import { dedupeKeys } from '../dedupe-keys';
import { AcceptInputSchema, inboxItemJson, type AcceptInput, type AcceptResult } from '../inbox';
import { newEntryId } from '../queue';
import { GC_MARGIN_MS, type RedisKeys } from './keys';
import { ACCEPT } from './queue-scripts';
import type { RedisQueue } from './redis-queue';
import { QueueBackedInbox } from '../queue-backed-inbox';

/**
 * The Redis inbox: each accept is one Lua script (dedupe check + entry), pipelined by ioredis, so no
 * batcher is needed here. Durability before the 200 is Redis's: run it with `appendonly yes` (and
 * `appendfsync everysec` or `always`) in production.
 */
export class RedisInbox extends QueueBackedInbox<RedisQueue> {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    queue: RedisQueue,
    private readonly clock: Clock,
    private readonly dedupeTtlMs: number,
  ) {
    super(queue);
  }

  async accept(raw: AcceptInput): Promise<AcceptResult> {
    const input = parseOrThrow(AcceptInputSchema, raw, 'delivery');
    const now = this.clock.now();
    const keys = dedupeKeys(input);
    const args = [
      this.queue.q,
      this.keys.dedupe(keys.delivery),
      keys.dedupe === undefined ? '' : this.keys.dedupe(keys.dedupe),
      now,
      now + this.dedupeTtlMs,
      this.dedupeTtlMs + GC_MARGIN_MS,
      newEntryId(now),
      inboxItemJson(input),
    ];
    const [ok, detail] = (await ACCEPT.run(this.redis, [], args)) as [number, string];
    return ok === 1 ? { accepted: true, id: detail } : { accepted: false, duplicateOf: detail === 'delivery' ? 'delivery' : 'dedupe_key' };
  }
}
