import { createHash } from 'node:crypto';
import type { KvSpace } from '../store/kv';

/**
 * No reply loops (DESIGN.md: Rules the runtime keeps): a bot never reacts to its own posts, to content
 * the runtime itself created, or to other bots' posts unless its manifest asks to.
 *
 * What the runtime knows is kept in the store, so every replica knows it: the bot users on each tenant
 * (ours and others', from `GET /bots`), the token's own user (learned from what it creates), the ids of
 * posts and comments the runtime created, and, for incoming-webhook posts that return no id, a hash
 * of their text for a short while. A text stands in for an id only once per time it was sent: the first
 * post with that text is taken for the webhook's, and a later identical post (an employee writing the
 * same words) is an event like any other.
 */
export interface LoopCheckInput {
  tenant: string;
  bot: string;
  event: string;
  payload: Record<string, unknown>;
  /** The bot's manifest asks to react to other bots' posts. */
  reactToBots?: boolean;
}

export type LoopVerdict = { ignore: false } | { ignore: true; reason: 'own_bot' | 'other_bot' | 'runtime_created' | 'token_user' | 'runtime_text' };

/** How long a text sent through an incoming webhook is remembered (it comes back without an id). */
export const SENT_TEXT_TTL_MS = 15 * 60_000;
/** Created ids are remembered long enough to cover the platform's retries and a recovery run. */
export const CREATED_ID_TTL_MS = 3 * 24 * 60 * 60_000;

const CONTENT_EVENTS = new Set(['post.created', 'comment.created', 'comment.updated']);

export class LoopGuard {
  constructor(private readonly kv: KvSpace) {}

  /** Every bot user on a tenant, and which of them is which of our bots. */
  async noteBotUsers(tenant: string, ours: Record<string, number>, all: readonly number[]): Promise<void> {
    await this.kv.set(`bots:${tenant}`, { ours, all: [...new Set([...all, ...Object.values(ours)])] });
  }

  /**
   * The user the token's content is attributed to (spec: Authentication, 4: its creator or a system
   * user), learned from a comment or post the runtime created. A system user's (`type` `system`)
   * content is all the runtime's, so it is ignored; anyone else's (an employee who created the token,
   * or an author whose type is not given) is theirs too, so only what the runtime remembers creating is.
   */
  async noteTokenUser(tenant: string, user: { id: number; type?: string | undefined }): Promise<void> {
    if (user.type === 'system') await this.kv.set(`token-user:${tenant}`, user.id);
    else await this.kv.delete(`token-user:${tenant}`);
  }

  async noteCreated(tenant: string, kind: 'post' | 'comment', id: number): Promise<void> {
    await this.kv.set(`created:${tenant}:${kind}:${id}`, true, { ttlMs: CREATED_ID_TTL_MS });
  }

  async noteSentText(tenant: string, text: string): Promise<void> {
    const key = `text:${tenant}:${textHash(text)}`;
    const sent = sentText(await this.kv.get(key));
    await this.kv.set(key, { sent: sent.sent + 1, posts: sent.posts }, { ttlMs: SENT_TEXT_TTL_MS });
  }

  async check(input: LoopCheckInput): Promise<LoopVerdict> {
    if (!CONTENT_EVENTS.has(input.event)) return { ignore: false };
    const { tenant, payload } = input;
    const kind = input.event === 'post.created' ? 'post' : 'comment';
    const id = typeof payload.id === 'number' ? payload.id : undefined;
    if (id !== undefined && (await this.kv.get(`created:${tenant}:${kind}:${id}`)) !== undefined) return { ignore: true, reason: 'runtime_created' };

    const authorId = authorOf(payload);
    if (authorId !== undefined) {
      const bots = (await this.kv.get(`bots:${tenant}`)) as { ours: Record<string, number>; all: number[] } | undefined;
      if (bots?.ours[input.bot] === authorId) return { ignore: true, reason: 'own_bot' };
      const ourOthers = Object.values(bots?.ours ?? {});
      // our own bots' output is always runtime-created content; other integrations' bots only when asked
      if (ourOthers.includes(authorId)) return { ignore: true, reason: 'runtime_created' };
      if (!input.reactToBots && bots?.all.includes(authorId)) return { ignore: true, reason: 'other_bot' };
      if ((await this.kv.get(`token-user:${tenant}`)) === authorId) return { ignore: true, reason: 'token_user' };
    }
    // incoming webhooks post, never comment: only a post can be one of theirs
    if (kind === 'post' && typeof payload.body === 'string' && (await this.isSentText(tenant, payload.body, id)))
      return { ignore: true, reason: 'runtime_text' };
    return { ignore: false };
  }

  /**
   * Whether the post is the one an incoming webhook made of a text we sent: each sending excuses one post,
   * bound to its id at the first check (every bot checks the same post, and all get the same answer).
   */
  private async isSentText(tenant: string, body: string, id: number | undefined): Promise<boolean> {
    const key = `text:${tenant}:${textHash(body)}`;
    const value = await this.kv.get(key);
    if (value === undefined) return false;
    const sent = sentText(value);
    if (id === undefined) return true;
    if (sent.posts.includes(id)) return true;
    if (sent.posts.length >= sent.sent) return false;
    await this.kv.set(key, { sent: sent.sent, posts: [...sent.posts, id] }, { ttlMs: SENT_TEXT_TTL_MS });
    return true;
  }
}

/** A sent text's record: how often it was sent, and the posts taken for those sendings. */
function sentText(value: unknown): { sent: number; posts: number[] } {
  if (value === undefined) return { sent: 0, posts: [] };
  const record = value as { sent?: unknown; posts?: unknown };
  // `true`: written before texts counted, one sending
  const sent = typeof record.sent === 'number' ? record.sent : 1;
  const posts = Array.isArray(record.posts) ? record.posts.filter((p): p is number => typeof p === 'number') : [];
  return { sent, posts };
}

function authorOf(payload: Record<string, unknown>): number | undefined {
  const author = payload.author as { id?: unknown } | null | undefined;
  return typeof author?.id === 'number' ? author.id : undefined;
}

function textHash(text: string): string {
  return createHash('sha256').update(text.trim()).digest('hex').slice(0, 32);
}
