import { HELD_NOTE } from '../../store/paused-bots';
import type { InboxEntry } from '../../store/inbox';
import { DeliveryStatusSchema, type DeliveriesView, type DeliveryQuery, type DeliveryRow, type DeliveryStatus } from '../console-views';

/** A delivery a bot is done with, as the runtime's recent history keeps it (src/runtime/ingest/delivery-log.ts). */
export interface HandledInput {
  tenant: string;
  bot: string;
  event: string;
  deliveryId: string;
  outcome: 'handled' | 'ignored';
  detail: string;
  recovered: boolean;
  at: number;
  durationMs: number;
  /** What its handler queued (older records have none). */
  sends?: readonly { kind: string; to: string; text: string }[];
}

export interface DeliverySources {
  live: readonly InboxEntry[];
  dead: readonly InboxEntry[];
  handled: readonly HandledInput[];
}

/**
 * One timeline of deliveries, newest first: what the inbox holds (waiting, in progress, retrying after
 * a failure, dead) and what the bots did with the rest (handled, or ignored and why). A delivery
 * handled a moment ago may still be in the inbox until its entry is completed: the history wins.
 * Counts are per status (and per bot and status) over the bot and tenant asked for, before the status
 * filter and the limit.
 */
export function deliveriesView(sources: DeliverySources, query: DeliveryQuery, now: number): DeliveriesView {
  const handled = sources.handled.map(fromHistory);
  const done = new Set(handled.map(identity));
  const inbox = [...sources.live, ...sources.dead].map(fromInbox).filter((row) => !done.has(identity(row)));
  const rows = [...handled, ...inbox]
    .filter((row) => (query.bot === undefined || row.bot === query.bot) && (query.tenant === undefined || row.tenant === query.tenant))
    .sort((a, b) => b.at - a.at);
  const counts = zeroCounts();
  const perBot: Record<string, Record<DeliveryStatus, number>> = {};
  for (const row of rows) {
    counts[row.status] += 1;
    (perBot[row.bot] ??= zeroCounts())[row.status] += 1;
  }
  const shown = query.status === undefined ? rows : rows.filter((row) => row.status === query.status);
  return { now, rows: shown.slice(0, query.limit), counts, perBot };
}

function zeroCounts(): Record<DeliveryStatus, number> {
  return Object.fromEntries(DeliveryStatusSchema.options.map((status) => [status, 0])) as Record<DeliveryStatus, number>;
}

function fromHistory(entry: HandledInput): DeliveryRow {
  return {
    deliveryId: entry.deliveryId,
    entryId: null,
    tenant: entry.tenant,
    bot: entry.bot,
    event: entry.event,
    status: entry.outcome,
    detail: entry.detail,
    attempts: null,
    receivedAt: null,
    at: entry.at,
    nextAttemptAt: null,
    durationMs: entry.durationMs,
    recovered: entry.recovered,
    sends: (entry.sends ?? []).map((send) => ({ kind: send.kind, to: send.to, text: send.text })),
  };
}

function fromInbox(entry: InboxEntry): DeliveryRow {
  const envelope = entry.payload.envelope as { event?: unknown; recovered?: unknown } | null;
  const status = inboxStatus(entry);
  return {
    deliveryId: entry.payload.deliveryId,
    entryId: entry.id,
    tenant: entry.payload.tenant,
    bot: entry.payload.bot,
    event: entry.payload.event ?? (typeof envelope?.event === 'string' ? envelope.event : 'unknown'),
    status,
    detail: status === 'dead' ? entry.deadReason : entry.lastError,
    attempts: entry.attempts,
    receivedAt: entry.enqueuedAt,
    at: entry.enqueuedAt,
    // a held delivery waits for its bot's resume, not for a time
    nextAttemptAt: (status === 'retrying' || status === 'waiting') && entry.lastError !== HELD_NOTE ? entry.notBefore : null,
    durationMs: null,
    recovered: envelope?.recovered === true,
    sends: [],
  };
}

function inboxStatus(entry: InboxEntry): DeliveryStatus {
  if (entry.state === 'dead') return 'dead';
  if (entry.state === 'leased') return 'in progress';
  // held for a paused bot: waiting, not failing
  return entry.lastError && entry.lastError !== HELD_NOTE ? 'retrying' : 'waiting';
}

function identity(row: DeliveryRow): string {
  return JSON.stringify([row.tenant, row.bot, row.deliveryId]);
}
