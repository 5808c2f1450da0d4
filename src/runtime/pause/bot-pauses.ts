import { z } from 'zod';
import { closestName } from '../../did-you-mean';
import { IntrabotError, InvalidInputError } from '../../errors';
import type { Logger } from '../../log';
import { botOf, OutboxRecordSchema } from '../../outbox/entry';
import type { Scheduler } from '../../scheduler/scheduler';
import { HELD_NOTE, type PausedBots, type PauseRecord } from '../../store/paused-bots';
import type { Store } from '../../store/store';
import { parseOrThrow } from '../../validation';
import type { DeploymentTable } from '../deployments';

/** Who asked, for the log: the CLI (admin routes), the console, or code. */
export type PauseActor = 'admin' | 'console';

export const PauseInputSchema = z.strictObject({
  reason: z.string().trim().min(1, 'must not be empty').max(500, 'at most 500 characters').optional(),
});

export const ResumeInputSchema = z.strictObject({
  /** Drop the deliveries that waited for the bot instead of handling them. */
  discard: z.boolean().optional(),
});

/** What a resume did. */
export interface ResumeResult {
  /** False when the bot was not paused (nothing else was done). */
  resumed: boolean;
  /** What its pause was. */
  pause?: PauseRecord;
  /** Deliveries held for it and now handed to it, in the order they came. */
  released: number;
  /** Deliveries waiting for it and dropped (`discard`). */
  discarded: number;
  /** Outbox messages held for it and now sent. */
  messages: number;
}

export interface BotPausesDeps {
  table: DeploymentTable;
  store: Pick<Store, 'inbox' | 'outbox'>;
  paused: PausedBots;
  scheduler: Pick<Scheduler, 'resumed'>;
  /** Wakes the inbox worker and the outbox sender of this replica (the others poll). */
  wake: () => void;
  logger: Logger;
}

/** How many waiting entries a resume looks through (each queue): beyond it, held entries come back after `HOLD_MS`. */
const SWEEP_LIMIT = 10_000;

/**
 * Pausing and resuming a bot on a tenant (`intrabot bots pause|resume`, the console). A pause is one
 * record in the store: every replica holds the bot's deliveries, jobs and messages once it sees it
 * (within half a second). A resume removes it, hands the held deliveries back in the order they came
 * (or drops them with `discard`), lets the held messages go, and catches up the slots its schedules
 * missed per their `catch_up`.
 *
 * @example
 * await pauses.pause({ tenant: 'default', bot: 'kudos' }, { reason: 'posting twice' }, 'admin');
 * await pauses.resume({ tenant: 'default', bot: 'kudos' }, {}, 'admin'); // => { resumed: true, released: 12, ... }
 */
export class BotPauses {
  constructor(private readonly deps: BotPausesDeps) {}

  /**
   * The deployment a request names: its bot must be deployed, its tenant given when the bot runs on
   * several. A refusal is logged (who asked to pause what), then thrown.
   */
  locate(bot: string, tenant: string | undefined): { tenant: string; bot: string } {
    try {
      return this.find(bot, tenant);
    } catch (error) {
      this.deps.logger.warn({ bot, tenant, error: (error as Error).message }, 'pause or resume refused');
      throw error;
    }
  }

  private find(bot: string, tenant: string | undefined): { tenant: string; bot: string } {
    const all = this.deps.table.all();
    const tenants = all.filter((d) => d.bot.name === bot).map((d) => d.tenant.config.id);
    if (tenants.length === 0) {
      const close = closestName(bot, new Set(all.map((d) => d.bot.name)));
      throw new IntrabotError('unknown_bot', `no bot "${bot}" is deployed here${close ? ` (did you mean "${close}"?)` : ''}`);
    }
    if (tenant === undefined) {
      if (tenants.length > 1) throw new InvalidInputError('tenant', `tenant: bot ${bot} runs on tenants ${tenants.join(', ')}; name one`);
      return { tenant: tenants[0]!, bot };
    }
    if (!tenants.includes(tenant)) {
      throw new IntrabotError('unknown_tenant', `bot ${bot} is not deployed to tenant "${tenant}" (it runs on ${tenants.join(', ')})`);
    }
    return { tenant, bot };
  }

  async pause(at: { tenant: string; bot: string }, raw: unknown, by: PauseActor): Promise<{ pause: PauseRecord; already: boolean }> {
    const input = parseOrThrow(PauseInputSchema, raw ?? {}, 'pause');
    const already = (await this.deps.paused.current(at.tenant, at.bot)) !== undefined;
    const pause = await this.deps.paused.pause(at.tenant, at.bot, input.reason ?? null);
    this.deps.logger.warn({ tenant: at.tenant, bot: at.bot, reason: pause.reason, by }, 'bot paused: its deliveries, jobs and messages are held');
    return { pause, already };
  }

  async resume(at: { tenant: string; bot: string }, raw: unknown, by: PauseActor): Promise<ResumeResult> {
    const input = parseOrThrow(ResumeInputSchema, raw ?? {}, 'resume');
    const pause = await this.deps.paused.resume(at.tenant, at.bot);
    if (!pause) return { resumed: false, released: 0, discarded: 0, messages: 0 };
    const inbox = await this.releaseDeliveries(at, input.discard === true);
    const messages = await this.releaseMessages(at);
    await this.deps.scheduler.resumed(at.tenant, at.bot);
    this.deps.wake();
    this.deps.logger.warn({ tenant: at.tenant, bot: at.bot, by, ...inbox, messages }, 'bot resumed');
    return { resumed: true, pause, ...inbox, messages };
  }

  /** Every paused bot, from the store now. */
  list(): Promise<PauseRecord[]> {
    return this.deps.paused.list();
  }

  /** Held deliveries due now, oldest first (so they are handled in the order they came), or dropped. */
  private async releaseDeliveries(at: { tenant: string; bot: string }, discard: boolean): Promise<{ released: number; discarded: number }> {
    const counts = { released: 0, discarded: 0 };
    for (const entry of await this.deps.store.inbox.list({ state: 'live', limit: SWEEP_LIMIT })) {
      if (entry.state !== 'pending' || entry.payload.tenant !== at.tenant || entry.payload.bot !== at.bot) continue;
      if (discard) counts.discarded += Number(await this.deps.store.inbox.drop(entry.id));
      else if (entry.lastError === HELD_NOTE) counts.released += Number(await this.deps.store.inbox.requeue(entry.id));
    }
    return counts;
  }

  private async releaseMessages(at: { tenant: string; bot: string }): Promise<number> {
    let released = 0;
    for (const entry of await this.deps.store.outbox.list({ state: 'live', limit: SWEEP_LIMIT })) {
      if (entry.state !== 'pending' || entry.lastError !== HELD_NOTE) continue;
      const record = OutboxRecordSchema.safeParse(entry.payload);
      const owner = record.success ? botOf(record.data) : undefined;
      if (owner?.tenant === at.tenant && owner.bot === at.bot) released += Number(await this.deps.store.outbox.requeue(entry.id));
    }
    return released;
  }
}
