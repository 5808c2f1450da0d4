import type { EntrySink } from '../../bots/create-bot-context';
import type { OutboxEntry, OutboxEntryInput } from '../../outbox/entry';
import { kindOf, type RecordedSend } from '../../outbox/kinds/send-kinds';
import { parseEntry, type EnqueueOptions } from '../../outbox/outbox';

export type { SentMedia } from '../../outbox/kinds/sent-media';

/**
 * One thing a handler sent, as `testBot` records it (what the outbox would have delivered): each kind
 * of send's `record` (`src/outbox/kinds/`). `kind` says what it is; `text` is the rendered text
 * (templates already applied); the target is the wall (its id, or its name when the test gave no id
 * for it), the post commented on, the employee written to, or the manifest target an incoming webhook
 * sends through.
 */
export type Sent = RecordedSend & {
  /** When a middleware held the send (quiet hours): the time, ISO 8601 UTC, it waits in the outbox until. */
  heldUntil?: string;
};

/**
 * The outbox of `testBot`: takes the entries `createBotContext` makes, exactly as the runtime's outbox
 * would, and records them as `Sent` instead of sending them.
 */
export class RecordingSink implements EntrySink {
  readonly sent: Sent[] = [];
  private readonly blobs = new Map<string, Uint8Array>();

  async enqueue(input: OutboxEntryInput, options: EnqueueOptions = {}): Promise<{ id: string }> {
    // checked and normalised as the runtime's outbox does (texts trimmed, bodies validated)
    const sent = sentOf(parseEntry(input));
    this.sent.push(options.notBeforeMs === undefined ? sent : { ...sent, heldUntil: new Date(options.notBeforeMs).toISOString() });
    return { id: `testbot-${this.sent.length}` };
  }

  async stashMedia(data: Buffer | Uint8Array): Promise<string> {
    const ref = `blob-${this.blobs.size + 1}`;
    this.blobs.set(ref, Uint8Array.from(data));
    return ref;
  }
}

function sentOf(entry: OutboxEntry): Sent {
  const record = kindOf(entry).record;
  if (!record) throw new Error(`testBot: the context queued a ${entry.kind} entry, which testBot does not record`);
  return record(entry);
}
