import type { EnqueueOptions } from '../outbox/outbox';
import type { OutboxEntryInput } from '../outbox/entry';
import { kindOf } from '../outbox/kinds/send-kinds';
import type { EntrySink } from './create-bot-context';
import { defineLocal, HOLD_SENDS_UNTIL } from './middleware';

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

/**
 * The sink of one run: each send waits until `HOLD_SENDS_UNTIL` when a middleware set it (quiet
 * hours), and is listed in `RUN_SENDS` once queued.
 */
export function runSink(sink: EntrySink, locals: Record<string, unknown>): EntrySink {
  const ctx = { locals };
  return {
    enqueue: async (entry, options: EnqueueOptions = {}) => {
      const until = HOLD_SENDS_UNTIL.get(ctx);
      const held = until === undefined ? options : { ...options, notBeforeMs: Math.max(until, options.notBeforeMs ?? 0), held: true };
      const receipt = await sink.enqueue(entry, held);
      const sends = RUN_SENDS.get(ctx) ?? [];
      sends.push({ kind: entry.kind, to: destinationOf(entry), entryId: receipt.id, ...(until === undefined ? {} : { heldUntil: held.notBeforeMs! }) });
      RUN_SENDS.set(ctx, sends);
      return receipt;
    },
    stashMedia: (data) => sink.stashMedia(data),
  };
}

/** Where an entry goes, in a few words (its kind's `destination`). */
export function destinationOf(entry: OutboxEntryInput): string {
  return kindOf(entry).destination(entry);
}
