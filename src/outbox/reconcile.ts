import { kindOf, type OutboxEntry } from './kinds/send-kinds';
import type { ReconcileInput, ReconcileResult } from './find-created';
import type { SendClient } from './send-client';

/**
 * Reconciling a create whose outcome is unknown (DESIGN.md: "A create that timed out is checked
 * against the platform before it is sent again"): the wall (or the post's comments, or the
 * announcements or events) is read back for an item with the same text, by the same author, created
 * since the first attempt. A match counts only if no other attempt owns it (`CreatedItems`): an
 * earlier identical message the outbox sent for another entry is a legitimate repeat's predecessor,
 * not this entry's lost attempt. Found and claimed: the entry is done; not found: it is sent again.
 * Each kind that can be read back says how (`reconcile`, `src/outbox/kinds/`); the searches are in
 * `find-created.ts`.
 */
export { RECONCILE_SKEW_MS } from './find-created';

/**
 * Looks for the effect of an earlier attempt of `entry` made since `sinceMs`. Posts, comments,
 * announcements and events can be read back; chat messages, direct messages, notifications, awards
 * and other writes cannot (`unreadable`: the caller applies `on_uncertain`, or resends an award).
 */
export async function reconcileEntry(client: SendClient, entry: OutboxEntry, input: ReconcileInput): Promise<ReconcileResult> {
  const reconcile = kindOf(entry).reconcile;
  return reconcile ? reconcile(client, entry, input) : { kind: 'unreadable' };
}
