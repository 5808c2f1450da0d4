import type { Redis } from 'ioredis';
import type { Clock } from '../../clock';
import { parseOrThrow } from '../../validation';
import { dedupeKeys } from '../dedupe-keys';
import { AcceptInputSchema, inboxItemJson, type AcceptInput, type AcceptResult } from '../inbox';
import { newEntryId } from '../queue';
import { WriteBatcher } from '../write-batcher';
import { GC_MARGIN_MS, type RedisKeys } from './keys';
import { ACCEPT } from './queue-scripts';
import type { RedisQueue } from './redis-queue';
import { QueueBackedInbox } from '../queue-backed-inbox';

type Parsed = ReturnType<typeof AcceptInputSchema.parse>;

/**
 * The most deliveries one script call accepts: Redis runs a script alone, and a batch this size holds it
 * a few milliseconds at most.
 */
export const REDIS_ACCEPT_BATCH = 64;

/**
 * The Redis inbox: the deliveries received in one event-loop turn are accepted by one Lua script (for
 * each, the dedupe check and the entry), so a burst costs one round trip and one socket write each way,
 * not one per delivery (on a small VM a socket write costs ~10 µs of CPU on each side). Each caller
 * resolves once the script has run. Durability before the 200 is Redis's: run it with `appendonly yes`
 * (and `appendfsync everysec` or `always`) in production.
 */
export class RedisInbox extends QueueBackedInbox<RedisQueue> {
  private readonly batcher: WriteBatcher<Parsed, AcceptResult>;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    queue: RedisQueue,
    private readonly clock: Clock,
    private readonly dedupeTtlMs: number,
  ) {
    super(queue);
    this.batcher = new WriteBatcher({ commit: (items) => this.commit(items), windowMs: 0, maxBatch: REDIS_ACCEPT_BATCH });
  }

  async accept(raw: AcceptInput): Promise<AcceptResult> {
    // validated before batching, so one bad delivery cannot fail its batch-mates
    const input = parseOrThrow(AcceptInputSchema, raw, 'delivery');
    return this.batcher.submit(input);
  }

  /** Sends the accepts waiting for their turn now (at close). */
  flush(): void {
    this.batcher.flush();
  }

  private async commit(items: Parsed[]): Promise<AcceptResult[]> {
    const now = this.clock.now();
    const args: (string | number)[] = [this.queue.q, now, now + this.dedupeTtlMs, this.dedupeTtlMs + GC_MARGIN_MS];
    for (const input of items) {
      const keys = dedupeKeys(input);
      args.push(this.keys.dedupe(keys.delivery), keys.dedupe === undefined ? '' : this.keys.dedupe(keys.dedupe), newEntryId(now), inboxItemJson(input));
    }
    const answers = (await ACCEPT.run(this.redis, [], args)) as (number | string)[];
    return items.map((_, i): AcceptResult => {
      const detail = String(answers[2 * i + 1]);
      if (answers[2 * i] === 1) return { accepted: true, id: detail };
      return { accepted: false, duplicateOf: detail === 'delivery' ? 'delivery' : 'dedupe_key' };
    });
  }
}
