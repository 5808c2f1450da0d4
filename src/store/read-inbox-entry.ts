import { InboxEntrySchema, type InboxEntry, type InboxItem } from './inbox';
import type { QueueEntry } from './queue';

/**
 * A stored entry as an inbox entry. One that cannot be read (not JSON, not a delivery, or nested too deep
 * for the reader: a RangeError from the schema's walk) comes back marked `unreadable` with what could be
 * read, instead of throwing: one bad row must not fail every listing and every reserve that meets it.
 */
export function readInboxEntry(entry: QueueEntry): InboxEntry {
  if (entry.unreadable !== undefined) return unreadableEntry(entry, entry.unreadable);
  let problem: string;
  try {
    const parsed = InboxEntrySchema.safeParse(entry);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    problem = `the stored delivery is not one the runtime can read: ${issue?.path.map(String).join('.') || 'entry'}: ${issue?.message ?? 'is invalid'}`;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    problem = 'the stored delivery nests too deeply to be read';
  }
  return unreadableEntry(entry, problem);
}

/** What can be told about an unreadable entry: the delivery's names when they are strings, no envelope. */
function unreadableEntry(entry: QueueEntry, reason: string): InboxEntry {
  const raw = (typeof entry.payload === 'object' && entry.payload !== null && !Array.isArray(entry.payload) ? entry.payload : {}) as Record<string, unknown>;
  const text = (key: keyof InboxItem): string | null => {
    const value = raw[key];
    return typeof value === 'string' ? value : null;
  };
  const payload: InboxItem = {
    tenant: text('tenant') ?? '?',
    bot: text('bot') ?? '?',
    deliveryId: text('deliveryId') ?? '?',
    dedupeKey: text('dedupeKey'),
    event: text('event'),
    envelope: null,
  };
  return { ...entry, payload, unreadable: reason };
}
