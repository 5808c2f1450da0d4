import type { EntrySink } from '../../bots/create-bot-context';
import type { OutboxEntry, OutboxEntryInput } from '../../outbox/entry';
import { parseEntry, type EnqueueOptions } from '../../outbox/outbox';

/** An attachment as sent: a file's path, stashed bytes by file name, or a URL the platform downloads. */
export interface SentMedia {
  type: 'image' | 'video' | 'document';
  path?: string;
  filename?: string;
  url?: string;
}

/**
 * One thing a handler sent, as `testBot` records it (what the outbox would have delivered). `kind` says
 * what it is; `text` is the rendered text (templates already applied); the target is the wall (its id,
 * or its name when the test gave no id for it), the post commented on, the employee written to, or the
 * manifest target an incoming webhook sends through.
 */
export type Sent = (
  | { kind: 'post'; wall: number | string; text: string; media?: SentMedia[] }
  | { kind: 'post'; target: string; text: string; media?: SentMedia[] }
  | { kind: 'comment'; postId: number; text: string }
  | { kind: 'dm'; userId: number; text: string; media?: SentMedia[] }
  | { kind: 'dm'; target: string; text: string; media?: SentMedia[] }
  | { kind: 'chat'; target: string; text: string; media?: SentMedia[] }
  | { kind: 'notification'; notification: Record<string, unknown> }
  | { kind: 'announcement'; announcement: Record<string, unknown> }
  | { kind: 'event'; event: Record<string, unknown> }
) & {
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
  switch (entry.kind) {
    case 'post':
      return withMedia({ kind: 'post', wall: entry.wallId ?? entry.wallName ?? '', text: entry.body }, entry.media);
    case 'comment':
      return { kind: 'comment', postId: entry.postId, text: entry.body };
    case 'dm':
      return withMedia({ kind: 'dm', userId: entry.userId, text: entry.text }, entry.media);
    case 'incoming': {
      // the webhook is named `<bot>/<target>`: the target is what the test knows it by
      const target = entry.webhook.id.slice(entry.webhook.id.indexOf('/') + 1);
      const payload = entry.payload as { text?: string; media?: SentMedia[] };
      const text = String(payload.text ?? '');
      if (entry.action === 'chat_message') return withMedia({ kind: 'chat', target, text }, payload.media);
      if (entry.action === 'direct_message') return withMedia({ kind: 'dm', target, text }, payload.media);
      return withMedia({ kind: 'post', target, text }, payload.media);
    }
    case 'notification':
      return { kind: 'notification', notification: entry.notification };
    case 'announcement':
      return { kind: 'announcement', announcement: entry.announcement };
    case 'event':
      return { kind: 'event', event: entry.event };
    default:
      throw new Error(`testBot: the context queued a ${entry.kind} entry, which testBot does not record`);
  }
}

function withMedia<T extends Sent>(sent: T, media: readonly object[] | undefined): T {
  if (!media?.length) return sent;
  const out = media.map((item) => {
    const { type, path, filename, url } = item as SentMedia & { blobRef?: string };
    return { type, ...(path ? { path } : {}), ...(filename ? { filename } : {}), ...(url ? { url } : {}) };
  });
  return { ...sent, media: out };
}
