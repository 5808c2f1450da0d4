import { z } from 'zod';
import type { Clock } from '../clock';
import type { KvSpace } from './kv';
import type { LeaseRef, OutboxQueue, QueueOps } from './queue';

/** The key-value space the paused bots are kept in (every replica reads the same one). */
export const PAUSED_BOTS_SPACE = 'runtime:paused';

/** A paused bot, as stored: who, why, since when. */
export const PauseRecordSchema = z.object({
  tenant: z.string().min(1),
  bot: z.string().min(1),
  reason: z.string().nullable(),
  /** Ms on the runtime's clock. */
  since: z.number(),
});
export type PauseRecord = z.infer<typeof PauseRecordSchema>;

/** The note a held entry carries as its last error (the listings show it). */
export const HELD_NOTE = 'held: its bot is paused';

/**
 * How long a held entry waits before it is looked at again should no resume wake it (a replica that
 * resumed the bot stopped before it released what was held): a resume releases held entries at once.
 */
export const HOLD_MS = 10 * 60_000;

/** How stale a replica's view of the paused bots may be: a pause elsewhere is seen within this. */
export const PAUSED_VIEW_MS = 500;

const keyOf = (tenant: string, bot: string): string => `${tenant}/${bot}`;

/**
 * Which bots are paused, kept in the store so every replica sees a pause or a resume within
 * `PAUSED_VIEW_MS`. `isPaused` answers from a view read at most that long ago (the inbox worker and the
 * outbox sender ask for every item); `current` reads the store now.
 *
 * @example
 * const paused = new PausedBots(store.kv(PAUSED_BOTS_SPACE), clock);
 * await paused.pause('default', 'kudos', 'posting twice');
 * await paused.isPaused('default', 'kudos'); // true, on every replica within half a second
 */
export class PausedBots {
  private view = new Map<string, PauseRecord>();
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly kv: KvSpace,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /** Pauses a bot (again: the reason is replaced, `since` kept); resolves with the record stored. */
  async pause(tenant: string, bot: string, reason: string | null): Promise<PauseRecord> {
    const before = await this.current(tenant, bot);
    const record: PauseRecord = { tenant, bot, reason, since: before?.since ?? this.clock.now() };
    await this.kv.set(keyOf(tenant, bot), record);
    this.view.set(keyOf(tenant, bot), record);
    return record;
  }

  /** Resumes a bot; resolves with what its pause was, or undefined when it was not paused. */
  async resume(tenant: string, bot: string): Promise<PauseRecord | undefined> {
    const before = await this.current(tenant, bot);
    await this.kv.delete(keyOf(tenant, bot));
    this.view.delete(keyOf(tenant, bot));
    return before;
  }

  /** The bot's pause as the store holds it now. */
  async current(tenant: string, bot: string): Promise<PauseRecord | undefined> {
    const parsed = PauseRecordSchema.safeParse(await this.kv.get(keyOf(tenant, bot)));
    return parsed.success ? parsed.data : undefined;
  }

  /** Every paused bot, from the store now, in key order. */
  async list(): Promise<PauseRecord[]> {
    const items = await this.kv.list();
    return items.flatMap((item) => {
      const parsed = PauseRecordSchema.safeParse(item.value);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** Whether the bot is paused, from a view at most `PAUSED_VIEW_MS` old (read again when older). */
  async isPaused(tenant: string, bot: string): Promise<boolean> {
    const now = this.clock.now();
    // a clock set back (a test's, a corrected host's) makes the view stale too
    if (now - this.readAt >= PAUSED_VIEW_MS || now < this.readAt) await this.refresh();
    return this.view.has(keyOf(tenant, bot));
  }

  private refresh(): Promise<void> {
    this.reading ??= (async () => {
      try {
        const readAt = this.clock.now();
        this.view = new Map((await this.list()).map((record) => [keyOf(record.tenant, record.bot), record]));
        this.readAt = readAt;
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}

/**
 * Holds a handed-out entry of a paused bot: put off (not counted as a try) until a resume releases it,
 * or `HOLD_MS` at most. Then the store is asked again: a resume that came in between, on any replica,
 * released what was held before it, but perhaps not this entry, held a moment later; so it is released
 * here. Resolves false, holding nothing, when the bot is not paused.
 */
export async function holdIfPaused(
  paused: PausedBots,
  queue: Pick<QueueOps, 'defer' | 'requeue'> & Partial<Pick<OutboxQueue, 'setAside'>>,
  lease: LeaseRef & { target?: string },
  owner: { tenant: string; bot: string },
  now: number,
): Promise<boolean> {
  if (!(await paused.isPaused(owner.tenant, owner.bot))) return false;
  // an outbox entry waits in a line of its own, so what other bots send to the same target goes on
  if (queue.setAside && lease.target !== undefined) await queue.setAside(lease, heldLineOf(lease.target, owner.bot), now + HOLD_MS, HELD_NOTE);
  else await queue.defer(lease, now + HOLD_MS, HELD_NOTE);
  if ((await paused.current(owner.tenant, owner.bot)) === undefined) await queue.requeue(lease.id);
  return true;
}

/** The line a paused bot's held outbox entries wait in, beside their target's: in order among themselves. */
export function heldLineOf(target: string, bot: string): string {
  return target.endsWith(`:paused:${bot}`) ? target : `${target}:paused:${bot}`;
}
