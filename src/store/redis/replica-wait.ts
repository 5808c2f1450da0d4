import { StoreUnavailableError } from '../store-errors';
import type { LuaScript } from './lua-script';
import type { RedisClient } from './redis-client';

/**
 * The writes that acknowledge something to a caller (an inbox accept, a batch of them, an outbox
 * enqueue), made sure on `minReplicas` replicas before they are answered: each runs on a connection of
 * its own followed by `WAIT minReplicas timeoutMs` (WAIT blocks its connection, so the store's other
 * commands do not queue behind it). Fewer replicas in time: `store_unavailable`, so the route answers 503
 * and the sender retries; the write itself stays on the primary (a retry finds it as a duplicate, and
 * that retry is waited for too: see the scripts' `touch`).
 *
 * With `minReplicas` 0 nothing is waited for and the store's own connection is used.
 */
export class ReplicaWait {
  constructor(
    private readonly main: RedisClient,
    private readonly waiting: RedisClient | undefined,
    readonly minReplicas: number,
    readonly timeoutMs: number,
  ) {}

  /** Whether writes are waited for (the scripts then also touch what they find, see `ACCEPT`). */
  get on(): boolean {
    return this.minReplicas > 0 && this.waiting !== undefined;
  }

  async run(script: LuaScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    if (!this.on) return script.run(this.main, keys, args);
    const { result, confirmed } = await script.runThenWait(this.waiting!, keys, args, this.minReplicas, this.timeoutMs);
    if (confirmed < this.minReplicas) {
      throw new StoreUnavailableError(
        `Redis: ${confirmed} of the ${this.minReplicas} replicas required confirmed the write within ${this.timeoutMs} ms; try again shortly`,
      );
    }
    return result;
  }

  async close(): Promise<void> {
    await this.waiting?.quit().catch(() => this.waiting?.disconnect());
  }
}
