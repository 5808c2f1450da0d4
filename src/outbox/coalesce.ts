import { splitMessage } from '../templates/split-message';
import type { KvSpace } from '../store/kv';
import type { OutboxQueue, QueueLease } from '../store/queue';
import { botOf, mergeableText, OutboxRecordSchema, sameChannel, type OutboxRecord } from './entry';

/**
 * Coalescing (DESIGN.md: "Alert storms are coalesced into digests when a target's budget would be
 * exceeded"): when a target holds more messages than its budget sends within `windowMs`, the head
 * entry absorbs the mergeable entries queued behind it, and goes out as a few digests instead.
 * Every original text appears whole, in order, in some digest (a text longer than a digest is split
 * across consecutive parts, never cut off); the pacer keeps the limit.
 */
export interface CoalesceOptions {
  /** Coalesce when the target holds more than its budget sends in this span. */
  windowMs: number;
  /** The longest digest, in characters. spec: not shown (maximum lengths) — a conservative choice. */
  maxChars: number;
  /** Most entries absorbed into one head entry. */
  maxItems: number;
  separator: string;
}

export const DEFAULT_COALESCE: CoalesceOptions = { windowMs: 60_000, maxChars: 4_000, maxItems: 1_000, separator: '\n\n' };

/** The digest of a head entry, kept in kv so a retry or another replica resumes it part by part. */
export interface DigestState {
  parts: string[];
  /** Parts delivered so far. */
  sent: number;
  /** Ids of the absorbed entries (dropped from the queue once the digest is saved). */
  members: string[];
}

/**
 * Packs texts into as few parts of at most `maxChars` as keeps their order, joined by `separator`.
 *
 * @example packDigests(['a', 'b', 'c'], 3, '\n') // ['a\nb', 'c']
 */
export function packDigests(texts: readonly string[], maxChars: number, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (const text of texts) {
    const pieces = text.length > maxChars ? splitMessage(text, { maxLength: maxChars }) : [text];
    for (const piece of pieces) {
      const joined = current === '' ? piece : `${current}${separator}${piece}`;
      if (joined.length <= maxChars) {
        current = joined;
        continue;
      }
      parts.push(current);
      current = piece;
    }
  }
  if (current !== '') parts.push(current);
  return parts;
}

export function digestKey(entryId: string): string {
  return `digest:${entryId}`;
}

export interface CoalescerDeps {
  queue: OutboxQueue;
  kv: KvSpace;
  options: CoalesceOptions;
  /** Messages the target's budget allows within `options.windowMs`. */
  capacityOf: (target: string) => number;
  ttlMs: number;
  now: () => number;
}

/** The digest the head entry must send, when it has one (made now, or resumed from the store). */
export async function prepareDigest(deps: CoalescerDeps, lease: QueueLease, record: OutboxRecord): Promise<DigestState | undefined> {
  const saved = (await deps.kv.get(digestKey(lease.id))) as DigestState | undefined;
  if (saved) {
    // a crash between saving the digest and dropping its members: drop them now, once
    for (const id of saved.members) await deps.queue.drop(id);
    return saved;
  }
  const headText = record.coalescible ? mergeableText(record.entry) : undefined;
  if (headText === undefined) return undefined;
  if ((await deps.queue.depth(lease.target)) <= deps.capacityOf(lease.target)) return undefined;
  const followers = await mergeableFollowers(deps, lease, record);
  if (followers.length === 0) return undefined;
  const state: DigestState = {
    parts: packDigests([headText, ...followers.map((f) => f.text)], deps.options.maxChars, deps.options.separator),
    sent: 0,
    members: followers.map((f) => f.id),
  };
  // saved before the members leave the queue: at every moment each text is in the queue or in a digest
  await deps.kv.set(digestKey(lease.id), state as never, { ttlMs: deps.ttlMs });
  for (const id of state.members) await deps.queue.drop(id);
  return state;
}

/** The entries right behind the head that can join its digest, up to the first one that cannot. */
async function mergeableFollowers(deps: CoalescerDeps, lease: QueueLease, head: OutboxRecord): Promise<{ id: string; text: string }[]> {
  const live = await deps.queue.list({ target: lease.target, limit: deps.options.maxItems + 1 });
  const followers: { id: string; text: string }[] = [];
  for (const item of live) {
    if (item.id === lease.id) continue;
    // a leased or scheduled entry is not ours to send now
    if (item.state !== 'pending' || item.notBefore > deps.now()) break;
    const parsed = OutboxRecordSchema.safeParse(item.payload);
    if (!parsed.success || !parsed.data.coalescible || !sameChannel(head.entry, parsed.data.entry)) break;
    // another bot's message is not merged into this one's digest (that bot may be paused: its messages wait)
    if (botOf(parsed.data)?.bot !== botOf(head)?.bot) break;
    const text = mergeableText(parsed.data.entry);
    if (text === undefined) break;
    followers.push({ id: item.id, text });
    if (followers.length >= deps.options.maxItems) break;
  }
  return followers;
}
