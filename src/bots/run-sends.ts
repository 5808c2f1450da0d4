import type { EnqueueOptions } from '../outbox/outbox';
import type { OutboxEntryInput } from '../outbox/entry';
import { kindOf } from '../outbox/kinds/send-kinds';
import type { EntrySink } from './create-bot-context';
import { defineLocal, HOLD_SENDS_UNTIL } from './middleware';
import type { TraceContext } from '../tracing/spans';

/** One thing a run queued: its kind, where it goes (`wall 3`, `post 7`, `user 12`, `webhook ops/oncall`) and its outbox id. */
export interface RunSend {
  kind: string;
  to: string;
  entryId: string;
  /** When a middleware held it (quiet hours): the earliest time it is sent, ms. */
  heldUntil?: number;
}

/** What the current run has queued so far, in order: read by middleware after `next()` (the audit log). */
export const RUN_SENDS = defineLocal<RunSend[]>('intrabot.runSends');

/** Who is told of each entry a run queued, once it is queued (the runtime's delivery history). */
export interface SendListener {
  sent(entry: OutboxEntryInput): void;
}

/** What one run's sends carry beside the entry: its bot, its trace, its `ctx.locals`, who is told of each. */
export interface RunOutboxOptions {
  /** The run's `ctx.locals`: `HOLD_SENDS_UNTIL` is read there, `RUN_SENDS` written. */
  locals: Record<string, unknown>;
  /** The bot queuing: each entry names it, so the outbox holds it while the bot is paused. */
  bot?: string | undefined;
  /** The run's trace context (tracing on): each entry's spans go under it. */
  trace?: TraceContext | undefined;
  told?: SendListener | undefined;
}

/**
 * The outbox as one run sees it, the one seam every send of the run passes (a handler's, a job's, an
 * alert message's): a send waits until `HOLD_SENDS_UNTIL` when a middleware set it (quiet hours), names
 * its bot (held while the bot is paused, whatever kind of message it is), goes under the run's span,
 * and once queued is told to `told` and listed in `RUN_SENDS`.
 */
export class RunOutbox implements EntrySink {
  private readonly ctx: { locals: Record<string, unknown> };

  constructor(
    private readonly outbox: EntrySink,
    private readonly run: RunOutboxOptions,
  ) {
    this.ctx = { locals: run.locals };
  }

  async enqueue(entry: OutboxEntryInput, options: EnqueueOptions = {}): Promise<{ id: string }> {
    const { bot, trace, told } = this.run;
    const until = HOLD_SENDS_UNTIL.get(this.ctx);
    const held = until === undefined ? options : { ...options, notBeforeMs: Math.max(until, options.notBeforeMs ?? 0), held: true };
    const tagged =
      bot === undefined && trace === undefined ? held : { ...held, ...(bot === undefined ? {} : { bot }), ...(trace === undefined ? {} : { trace }) };
    const receipt = await this.outbox.enqueue(entry, tagged);
    told?.sent(entry);
    const sends = RUN_SENDS.get(this.ctx) ?? [];
    sends.push({ kind: entry.kind, to: destinationOf(entry), entryId: receipt.id, ...(until === undefined ? {} : { heldUntil: held.notBeforeMs! }) });
    RUN_SENDS.set(this.ctx, sends);
    return receipt;
  }

  stashMedia(data: Buffer | Uint8Array): Promise<string> {
    return this.outbox.stashMedia(data);
  }
}

/** Where an entry goes, in a few words (its kind's `destination`). */
export function destinationOf(entry: OutboxEntryInput): string {
  return kindOf(entry).destination(entry);
}
