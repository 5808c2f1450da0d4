import type { SqlQueueRow } from './queue-row';
import type { InboxRecord, OutboxRecord } from './store-records';

/** The fields of a SQL queue row that travel (SQLite and PostgreSQL share the columns); a leased entry travels as waiting. */
export function queueFieldsOfRow(row: SqlQueueRow): Omit<InboxRecord, 'type'> {
  return {
    state: row.dead ? 'dead' : 'waiting',
    payload: row.payload,
    attempts: row.attempts,
    last_error: row.last_error,
    dead_reason: row.dead_reason,
    not_before: row.not_before,
    enqueued_at: row.enqueued_at,
  };
}

/**
 * For each outbox record, whether it is the head of its line once restored (the first waiting entry of
 * its target, in file order): only a head is due; the others wait behind it.
 */
export function lineHeads(records: readonly Pick<OutboxRecord, 'state' | 'target'>[]): boolean[] {
  const seen = new Set<string>();
  return records.map((record) => {
    if (record.state === 'dead' || seen.has(record.target)) return false;
    seen.add(record.target);
    return true;
  });
}
