import { readStoredPayload, type QueueEntry } from './queue';

/** A queue entry as the SQL stores keep it (SQLite and PostgreSQL share the columns; `dead` is 0/1 in SQLite, a boolean in PostgreSQL). */
export interface SqlQueueRow {
  id: string;
  target: string;
  payload: string;
  dead: number | boolean;
  not_before: number;
  lease_until: number;
  lease_token: string | null;
  attempts: number;
  last_error: string | null;
  dead_reason: string | null;
  enqueued_at: number;
  lost_leases: number;
}

/**
 * The entry a row holds at `now`: leased while its lease runs, else pending (or dead); a payload that is
 * not JSON is marked `unreadable` instead of throwing.
 */
export function rowToEntry(row: SqlQueueRow, now: number): QueueEntry {
  const leased = !row.dead && row.lease_token !== null && row.lease_until > now;
  const { payload, unreadable } = readStoredPayload(row.payload);
  return {
    id: row.id,
    target: row.target,
    payload,
    ...(unreadable === undefined ? {} : { unreadable }),
    state: row.dead ? 'dead' : leased ? 'leased' : 'pending',
    attempts: row.attempts,
    lastError: row.last_error,
    deadReason: row.dead_reason,
    enqueuedAt: row.enqueued_at,
    notBefore: row.not_before,
    leaseUntil: leased ? row.lease_until : null,
  };
}
