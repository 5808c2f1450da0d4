import { kindOf, type OutboxEntry } from './kinds/send-kinds';
import type { SendEntryContext, SendOutcome } from './kinds/send-kind';

// what a send needs and answers is shared by the kinds (`src/outbox/kinds/`)
export type { SendEntryContext, SendOutcome, TokenUser } from './kinds/send-kind';

/** Sends one entry with a single attempt (its kind's `send`); throws the client's error class on failure. */
export async function sendEntry(entry: OutboxEntry, ctx: SendEntryContext): Promise<SendOutcome> {
  return kindOf(entry).send(entry, ctx);
}

/** Whether the platform can be read back for this entry (its kind has a `reconcile`; see `reconcileEntry`). */
export function isReconcilable(entry: OutboxEntry): boolean {
  return kindOf(entry).reconcile !== undefined;
}

/** Whether sending the entry again is harmless whatever happened before (awards). */
export function isRepeatable(entry: OutboxEntry): boolean {
  return kindOf(entry).repeatable === true;
}
