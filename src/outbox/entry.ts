import { z } from 'zod';
import { TraceCarrierSchema } from '../tracing/trace-carrier';
import { kindOf, OutboxEntrySchema, type OutboxEntry } from './kinds/send-kinds';

/**
 * What the outbox sends: one entry per write a bot makes (DESIGN.md: Rules the runtime keeps,
 * "Everything sent goes through the outbox"). Entries are JSON in the store, so they hold
 * references, never secrets: an incoming webhook is named by the `store.secrets` entry that holds
 * its URL, and a file by its path or by a blob stashed in the store (`Outbox.stashMedia`).
 *
 * Each kind of entry is one file under `src/outbox/kinds/`; the union and the kind names come from
 * their registry (`SEND_KINDS`), re-exported here.
 */
export { OutboxEntrySchema, OUTBOX_KINDS, type OutboxEntry, type OutboxEntryInput, type OutboxKind } from './kinds/send-kinds';
export type { PostMedia } from './kinds/entry-fields';

/** What to do when a write the platform cannot read back may or may not have arrived. */
export const OnUncertainSchema = z.enum(['resend', 'drop']);
export type OnUncertain = z.infer<typeof OnUncertainSchema>;

/** The queue payload: the entry plus what the sender needs to decide about retries. */
export const OutboxRecordSchema = z.object({
  v: z.literal(1),
  entry: OutboxEntrySchema,
  /** No retry is scheduled past this time (ms on the store's clock); the entry goes to the dead letters. */
  deadlineAt: z.number(),
  onUncertain: OnUncertainSchema,
  /** Other entries' items merged into this one by coalescing are kept in kv, not here. */
  coalescible: z.boolean().default(true),
  /** The W3C trace context of the enqueue, when tracing is on: whoever sends the entry continues the trace. */
  trace: TraceCarrierSchema.optional().catch(undefined),
  /** Enqueued with a caller-chosen id: its delivery is remembered so the same id is not queued again. */
  keyed: z.boolean().optional(),
  /** The bot that queued it (when one did): held while that bot is paused. */
  bot: z.string().min(1).optional(),
});
export type OutboxRecord = z.infer<typeof OutboxRecordSchema>;

/** The bot an entry belongs to: the one that queued it, else the one it is sent as; undefined for neither. */
export function botOf(record: OutboxRecord): { tenant: string; bot: string } | undefined {
  const bot = record.bot ?? ('bot' in record.entry ? record.entry.bot : undefined);
  return bot === undefined ? undefined : { tenant: record.entry.tenant, bot };
}

/**
 * The queue target: entries with one target keep their order and go one at a time (each kind's
 * `orderKey`). A comment with a known wall queues with that wall's posts: a reply never overtakes the
 * post it follows (or any earlier post on that wall); without the wall it keeps order with its post's comments.
 */
export function targetOf(entry: OutboxEntry): string {
  return kindOf(entry).orderKey(entry);
}

/** The text of an entry that coalescing may merge with its neighbours, or undefined when it cannot be merged. */
export function mergeableText(entry: OutboxEntry): string | undefined {
  return kindOf(entry).mergeable?.text(entry);
}

/** The same entry with `text` as its message (for a digest). */
export function withText(entry: OutboxEntry, text: string): OutboxEntry {
  const mergeable = kindOf(entry).mergeable;
  return mergeable ? mergeable.withText(entry, text) : entry;
}

/** Two entries can share a digest when they go the same way, as the same sender. */
export function sameChannel(a: OutboxEntry, b: OutboxEntry): boolean {
  if (a.kind !== b.kind || a.tenant !== b.tenant) return false;
  return kindOf(a).mergeable?.sameChannel(a, b) ?? false;
}
