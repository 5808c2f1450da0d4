import type { RedisClient } from './redis-client';
import type { Clock } from '../../clock';
import type { AcceptRecord, BackendInbox } from '../backend';
import { dedupeKeys } from '../dedupe-keys';
import type { AcceptResult } from '../inbox';
import { newEntryId } from '../queue';
import { WriteBatcher } from '../write-batcher';
import { GC_MARGIN_MS, type RedisKeys } from './keys';
import { ACCEPT } from './queue-scripts';
import { RedisQueue } from './redis-queue';
import type { ReplicaWait } from './replica-wait';

/** A delivery ready for the accept script: its keys and stored form made before it joins a batch. */
interface Prepared {
  deliveryKey: string;
  /** '' for none. */
  dedupeKey: string;
  json: string;
}

/**
 * The most deliveries one script call accepts, and the most characters of stored deliveries (about their
 * bytes; a delivery larger than that goes alone): Redis runs a script alone, holding every other client
 * meanwhile, and a batch's callers share one command time-out.
 */
export const REDIS_ACCEPT_BATCH = 64;
export const REDIS_ACCEPT_BATCH_BYTES = 1_048_576;

/**
 * The Redis inbox: the deliveries received in one event-loop turn are accepted by one Lua script (for
 * each, the dedupe check and the entry), so a burst costs one round trip and one socket write each way,
 * not one per delivery (on a small VM a socket write costs ~10 µs of CPU on each side). Each caller
 * resolves once the script has run. Should the script fail partway (Redis out of memory), the deliveries
 * before the failure stay accepted while every caller of the batch is answered with the error: the
 * platform's retries of those then find them as duplicates, so none is lost or handled twice.
 * Durability before the 200 is Redis's: run it with `appendonly yes` (and `appendfsync everysec` or
 * `always`) in production, and with `minReplicas` the batch is also confirmed by that many replicas
 * (`ReplicaWait`) before any of its callers is answered.
 */
export class RedisInbox extends RedisQueue implements BackendInbox {
  private readonly batcher: WriteBatcher<Prepared, AcceptResult>;

  constructor(
    redis: RedisClient,
    private readonly keys: RedisKeys,
    clock: Clock,
    private readonly dedupeTtlMs: number,
    waits: ReplicaWait,
  ) {
    super(redis, keys, 'inbox', clock, waits);
    this.batcher = new WriteBatcher({
      commit: (items) => this.commit(items),
      windowMs: 0,
      maxBatch: REDIS_ACCEPT_BATCH,
      maxWeight: REDIS_ACCEPT_BATCH_BYTES,
      weightOf: (item) => item.json.length,
    });
  }

  /** Checked and serialised before it gets here (`assembleStore`), so one bad delivery cannot fail its batch-mates. */
  async accept(record: AcceptRecord): Promise<AcceptResult> {
    const keys = dedupeKeys(record);
    return this.batcher.submit({
      deliveryKey: this.keys.dedupe(keys.delivery),
      dedupeKey: keys.dedupe === undefined ? '' : this.keys.dedupe(keys.dedupe),
      json: record.json,
    });
  }

  /** Sends the accepts waiting for their turn, and resolves once Redis has answered every one sent (before the connection closes). */
  drain(): Promise<void> {
    return this.batcher.drain();
  }

  private async commit(items: Prepared[]): Promise<AcceptResult[]> {
    const now = this.clock.now();
    const args: (string | number)[] = [this.q, now, now + this.dedupeTtlMs, this.dedupeTtlMs + GC_MARGIN_MS, this.waits.on ? '1' : '0'];
    for (const item of items) args.push(item.deliveryKey, item.dedupeKey, newEntryId(now), item.json);
    // one WAIT for the whole batch, when replicas are waited for
    const answers = (await this.waits.run(ACCEPT, this.route, args)) as (number | string)[];
    return items.map((_, i): AcceptResult => {
      const detail = String(answers[2 * i + 1]);
      if (answers[2 * i] === 1) return { accepted: true, id: detail };
      return { accepted: false, duplicateOf: detail === 'delivery' ? 'delivery' : 'dedupe_key' };
    });
  }
}
