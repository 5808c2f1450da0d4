import { setTimeout as sleep } from 'node:timers/promises';
import { HELD_NOTE } from '../store/paused-bots';
import type { QueueEntry } from '../store/queue';
import type { Store } from '../store/store';

/** What `settle` watches: the platform's deliveries, and what the runtime still has to do. */
export interface SettleDeps {
  /** Resolves once no delivery of the platform is in flight. */
  settleDeliveries(): Promise<void>;
  /** The runtime's live work: inbox deliveries not yet handled, outbox entries not yet sent (waiting, or being handled now). */
  liveWork(): Promise<{ inbox: readonly string[]; outbox: readonly string[] }>;
  /** Moves the shared clock forward (for `advanceClock`). */
  advance?(seconds: number): Promise<void>;
}

export interface SettleOptions {
  /** Give up (rejecting, naming what is still live) after this long in real time. Default 10 s. */
  timeoutMs?: number;
  /**
   * Move the shared clock a second forward each time work is still live, so messages waiting for rate
   * budget (sends are spread about one a second) and retries waiting out a backoff go now, not in real
   * time. Cron slots the clock passes fire too. Default false: the clock is left alone.
   */
  advanceClock?: boolean;
  /**
   * Count only these bots' inbox deliveries as live work (every outbox entry counts): another bot's
   * delivery waiting out a retry's backoff then holds nothing up. Default: every bot's.
   */
  bots?: readonly string[];
}

/**
 * Waits until everything set in motion has played out: no delivery in flight, and the inbox and the
 * outbox empty, twice in a row with a settling of the deliveries between. Why that is enough: a send
 * leaves the outbox only once the platform answered, and the platform starts the deliveries of the
 * events a request fired before answering it; a delivery is answered only once the runtime recorded it
 * in its inbox; a handler's sends are in the outbox before its delivery leaves the inbox. So once the
 * inbox (read first) and the outbox are empty, all that can still come is an in-flight delivery, which
 * the second settling waits for, and whose inbox entry the second look would see.
 *
 * Polls with a backoff (10 ms to 200 ms) while work is live; it waits for an outcome, never a fixed time.
 * Work scheduled for later (a retry's backoff, a cron slot) is live until it has run.
 */
export async function settle(deps: SettleDeps, options: SettleOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const started = performance.now();
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    await deps.settleDeliveries();
    let live = await deps.liveWork();
    if (isIdle(live)) {
      await deps.settleDeliveries();
      live = await deps.liveWork();
      if (isIdle(live)) return;
    }
    if (performance.now() - started > timeoutMs) throw new Error(`settle: gave up after ${timeoutMs} ms; still live: ${describe(live)}`);
    if (options.advanceClock && deps.advance) await deps.advance(1);
    await sleep(wait);
  }
}

/**
 * A runtime's live work as its store holds it: the live inbox deliveries (bot and event; only `bots`'
 * when given) and the live outbox entries (their targets), a few of each; not what is held for a
 * paused bot. Replicas sharing one store
 * share it, so reading the shared store sees the work of all of them.
 */
export async function storeLiveWork(store: Store, bots?: readonly string[]): Promise<{ inbox: string[]; outbox: string[] }> {
  // held for a paused bot: nothing happens to it until someone resumes the bot
  const moving = (entry: QueueEntry): boolean => entry.lastError !== HELD_NOTE;
  // the inbox first: a handler's sends reach the outbox before its delivery leaves the inbox
  const listed = await store.inbox.list({ limit: bots ? 10_000 : 1_000 });
  const inbox = listed.filter((e) => moving(e) && (!bots || bots.includes(e.payload.bot))).slice(0, 10);
  const outbox = (await store.outbox.list({ limit: 1_000 })).filter(moving).slice(0, 10);
  return { inbox: inbox.map((e) => `${e.payload.bot} ${e.payload.event ?? 'delivery'}`), outbox: outbox.map((e) => e.target) };
}

function isIdle(live: { inbox: readonly string[]; outbox: readonly string[] }): boolean {
  return live.inbox.length === 0 && live.outbox.length === 0;
}

function describe(live: { inbox: readonly string[]; outbox: readonly string[] }): string {
  const parts = [...live.inbox.map((w) => `inbox: ${w}`), ...live.outbox.map((w) => `outbox: ${w}`)];
  return parts.slice(0, 5).join('; ') + (parts.length > 5 ? `; and ${parts.length - 5} more` : '');
}
