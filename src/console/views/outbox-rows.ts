import { HELD_NOTE } from '../../store/paused-bots';
import { OutboxRecordSchema } from '../../outbox/entry';
import { clipText, entryText } from '../../outbox/entry-text';
import type { QueueEntry } from '../../store/queue';
import { OutboxStatusSchema, type DigestView, type OutboxQuery, type OutboxRow, type OutboxStatus, type OutboxView } from '../console-views';

/** A head entry's digest as the sender keeps it (src/outbox/coalesce.ts `DigestState`). */
export interface DigestInput {
  parts: readonly string[];
  sent: number;
  members: readonly string[];
}

export interface OutboxSources {
  live: readonly QueueEntry[];
  dead: readonly QueueEntry[];
  /** Digests by the id of the entry that sends them. */
  digests: ReadonlyMap<string, DigestInput>;
}

/** How much of a message's text a row carries (a post may be long; the console shows it whole up to this). */
export const SHOWN_TEXT = 2_000;

/** Alert inputs queue their messages under ids of this form (`alertEntryId` in src/alerts/alert-entry-id.ts). */
const ALERT_ENTRY = /^alert-[0-9a-f]{32}$/;

/**
 * The outbox as the console shows it: each entry's state (queued, in flight, retrying after a failed
 * attempt, dead) with its error or reason, what it sends (kind and the start of its text), and the
 * digest it sends when a storm was coalesced into it. Counts are per status over the target asked
 * for, before the status filter and the limit.
 */
export function outboxView(sources: OutboxSources, query: OutboxQuery, now: number): OutboxView {
  const rows = [...sources.live, ...sources.dead]
    .filter((entry) => query.target === undefined || entry.target === query.target)
    .map((entry) => outboxRow(entry, sources.digests.get(entry.id)));
  const counts = Object.fromEntries(OutboxStatusSchema.options.map((status) => [status, 0])) as Record<OutboxStatus, number>;
  for (const row of rows) counts[row.status] += 1;
  const shown = query.status === undefined ? rows : rows.filter((row) => row.status === query.status);
  return { now, rows: shown.slice(0, query.limit), counts, digests: digestViews(sources) };
}

export function outboxRow(entry: QueueEntry, digest: DigestInput | undefined): OutboxRow {
  const record = OutboxRecordSchema.safeParse(entry.payload);
  return {
    id: entry.id,
    target: entry.target,
    tenant: record.success ? record.data.entry.tenant : null,
    kind: record.success ? record.data.entry.kind : 'unreadable',
    summary: record.success ? clip(entryText(record.data.entry)) : '(not an outbox entry)',
    text: record.success ? clipText(entryText(record.data.entry), SHOWN_TEXT) : '',
    status: outboxStatus(entry),
    attempts: entry.attempts,
    lastError: entry.lastError,
    deadReason: entry.deadReason,
    enqueuedAt: entry.enqueuedAt,
    notBefore: entry.notBefore,
    deadlineAt: record.success ? record.data.deadlineAt : null,
    fromAlerts: ALERT_ENTRY.test(entry.id),
    digest: digest ? digestView(entry.id, entry.target, digest) : null,
  };
}

/** The digests being sent, with their targets (an entry no longer listed sent its last part a moment ago). */
export function digestViews(sources: OutboxSources): DigestView[] {
  const targets = new Map(sources.live.map((entry) => [entry.id, entry.target]));
  return [...sources.digests].filter(([id]) => targets.has(id)).map(([id, digest]) => digestView(id, targets.get(id) ?? '', digest));
}

function digestView(entryId: string, target: string, digest: DigestInput): DigestView {
  return { entryId, target, parts: digest.parts.length, sent: digest.sent, members: digest.members.length };
}

function outboxStatus(entry: QueueEntry): OutboxStatus {
  if (entry.state === 'dead') return 'dead';
  if (entry.state === 'leased') return 'in flight';
  // held for a paused bot: queued, not failing
  return entry.lastError && entry.lastError !== HELD_NOTE ? 'retrying' : 'queued';
}

function clip(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
