import { endpoints } from '../api/schemas/endpoints';
import { InvalidInputError } from '../errors';
import type { KvSpace } from '../store/kv';
import type { Secrets } from '../store/secrets';
import type { CreatedItem } from './created-items';
import { sendableWallId, sendingBotUser, type OutboxEntry, type PostMedia } from './entry';
import { endpointById } from '../api/schemas/endpoints/catalog';
import { callOnce, type SendClient } from './send-client';
import { mediaForm } from '../api/media';

export interface SendEntryContext {
  client: SendClient;
  secrets: Pick<Secrets, 'get'>;
  kv: KvSpace;
  /** The queue entry (media ids are remembered under it). */
  entryId: string;
  /** How long notes about the entry are kept. */
  ttlMs: number;
  signal: AbortSignal;
}

/** What a delivered entry created: claimed for its attempt (`CreatedItems`), and for the loop guard. */
export interface SendOutcome {
  /** `tokenUser`: the author, when the content is the token's own (a comment, a post without `bot_user_id`). */
  created?: CreatedItem & { tokenUser?: TokenUser };
  /** Text posted through an incoming webhook (it comes back as a post without a known id). */
  sentText?: string;
}

/** The user content created with the token is attributed to, and its `type` (`system`, or `default` for an employee). */
export interface TokenUser {
  id: number;
  type?: string | undefined;
}

type Created = { id: number; author?: { id?: unknown; type?: unknown } | null };

/** Content created through the API is attributed to the token's user (spec: Authentication, 4): learned from what it creates. */
function tokenUser(created: Created): { tokenUser?: TokenUser } {
  const { id, type } = created.author ?? {};
  return typeof id === 'number' ? { tokenUser: { id, type: typeof type === 'string' ? type : undefined } } : {};
}

/** Sends one entry with a single attempt; throws the client's error class on failure. */
export async function sendEntry(entry: OutboxEntry, ctx: SendEntryContext): Promise<SendOutcome> {
  const base = { signal: ctx.signal };
  switch (entry.kind) {
    case 'post': {
      const mediaIds = entry.media?.length
        ? await uploadOnce({ client: ctx.client, kv: ctx.kv, entryId: ctx.entryId, media: entry.media, ttlMs: ctx.ttlMs, signal: ctx.signal })
        : undefined;
      const wallId = sendableWallId(entry);
      const botUserId = sendingBotUser(entry);
      const body = { body: entry.body, ...(botUserId ? { bot_user_id: botUserId } : {}), ...(mediaIds ? { media_ids: mediaIds } : {}) };
      const post = (await callOnce(ctx.client, endpoints['posts.create'], { ...base, params: { wall_id: wallId }, body })) as Created;
      return { created: { kind: 'post', id: post.id, ...(botUserId ? {} : tokenUser(post)) } };
    }
    case 'comment': {
      // spec: comments cannot carry bot_user_id, so every comment the runtime writes is the token's user's
      const comment = (await callOnce(ctx.client, endpoints['comments.create'], {
        ...base,
        params: { post_id: entry.postId },
        body: { body: entry.body },
      })) as Created;
      return { created: { kind: 'comment', id: comment.id, ...tokenUser(comment) } };
    }
    case 'dm':
      await callOnce(ctx.client, endpoints['directMessages.send'], {
        ...base,
        params: { id: entry.userId },
        body: { bot_user_id: sendingBotUser(entry), text: entry.text, ...(entry.media ? { media: entry.media } : {}) },
      });
      return {};
    case 'incoming': {
      const token = await incomingToken(ctx.secrets, entry.webhook.urlSecretRef);
      await callOnce(ctx.client, endpoints['incomingWebhooks.send'], { ...base, params: { token }, body: entry.payload });
      const text = entry.payload.text;
      return entry.action === 'wall_post' && typeof text === 'string' ? { sentText: text } : {};
    }
    case 'notification':
      await callOnce(ctx.client, endpoints['notifications.send'], { ...base, body: entry.notification });
      return {};
    case 'announcement': {
      const announcement = (await callOnce(ctx.client, endpoints['announcements.create'], { ...base, body: entry.announcement })) as Created;
      return { created: { kind: 'announcement', id: announcement.id } };
    }
    case 'event': {
      const event = (await callOnce(ctx.client, endpoints['events.create'], { ...base, body: entry.event })) as Created;
      return { created: { kind: 'event', id: event.id } };
    }
    case 'award':
      // spec: Award rules 3 — an identical row returns the existing award: safe to send again
      await callOnce(ctx.client, endpoints['achievements.award'], {
        ...base,
        params: { id: entry.achievementId },
        body: { awards: entry.rows },
        repeatable: true,
      });
      return {};
    case 'api': {
      const endpoint = endpointById(entry.endpointId);
      if (!endpoint) throw new InvalidInputError('entry.endpointId', `entry.endpointId: ${entry.endpointId} is not in the catalog`);
      await callOnce(ctx.client, endpoint, {
        ...base,
        ...(entry.params ? { params: entry.params } : {}),
        ...(entry.query ? { query: entry.query } : {}),
        body: entry.body,
      });
      return {};
    }
  }
}

/**
 * The token of an incoming webhook, from its URL kept encrypted in `store.secrets`
 * (spec: Incoming webhooks: `POST {base_url}/api/open/v1/incoming/{token}`).
 */
async function incomingToken(secrets: Pick<Secrets, 'get'>, ref: string): Promise<string> {
  const url = await secrets.get(ref);
  const token = url === undefined ? undefined : /\/incoming\/([^/?#]+)/.exec(url)?.[1];
  // the message names the secret, never its value
  if (!token) throw new InvalidInputError('entry.webhook.urlSecretRef', `entry.webhook.urlSecretRef: secret "${ref}" holds no incoming-webhook URL`);
  try {
    return decodeURIComponent(token);
  } catch {
    // a malformed escape can never be sent: a dead letter naming the secret, not a URIError retried for a day
    throw new InvalidInputError(
      'entry.webhook.urlSecretRef',
      `entry.webhook.urlSecretRef: secret "${ref}" holds a URL whose token is not valid percent-encoding`,
    );
  }
}

/** Whether the platform can be read back for this entry (see `reconcileEntry`). */
export function isReconcilable(entry: OutboxEntry): boolean {
  return entry.kind === 'post' || entry.kind === 'comment' || entry.kind === 'announcement' || entry.kind === 'event';
}

/** Whether sending the entry again is harmless whatever happened before (awards). */
export function isRepeatable(entry: OutboxEntry): boolean {
  return entry.kind === 'award';
}

export interface UploadOnceInput {
  client: SendClient;
  kv: KvSpace;
  entryId: string;
  media: readonly PostMedia[];
  /** How long the remembered ids are kept (past the entry's deadline). */
  ttlMs: number;
  signal?: AbortSignal;
}

/** The kv key holding the media ids of an entry's files, by position. */
export function mediaKey(entryId: string): string {
  return `media:${entryId}`;
}

/**
 * Uploads an entry's files through POST /media (spec: Media: two-step use) and answers their ids.
 * Each id is written to the store as soon as its upload succeeds, so a retry of the entry (after a
 * 503 on the post, or a restart) reuses what was uploaded instead of uploading it again.
 */
export async function uploadOnce(input: UploadOnceInput): Promise<number[]> {
  const key = mediaKey(input.entryId);
  const known = await input.kv.get(key);
  const ids: (number | null)[] = Array.isArray(known) ? known.map((v) => (typeof v === 'number' ? v : null)) : [];
  for (const [index, item] of input.media.entries()) {
    if (typeof ids[index] === 'number') continue;
    const { form, cleanup } = await mediaForm({ data: await sourceOf(item, input.kv), type: item.type, ...(item.filename ? { filename: item.filename } : {}) });
    try {
      const uploaded = (await callOnce(input.client, endpoints['media.upload'], { form, ...(input.signal ? { signal: input.signal } : {}) })) as { id: number };
      ids[index] = uploaded.id;
    } finally {
      await cleanup();
    }
    await input.kv.set(key, ids, { ttlMs: input.ttlMs });
  }
  return ids.map((id) => id as number);
}

async function sourceOf(item: PostMedia, kv: KvSpace): Promise<Buffer | { path: string }> {
  if (item.path !== undefined) return { path: item.path };
  const stashed = await kv.get(item.blobRef ?? '');
  if (typeof stashed !== 'string') throw new InvalidInputError('entry.media.blobRef', `entry.media.blobRef: ${item.blobRef} is no longer in the store`);
  return Buffer.from(stashed, 'base64');
}
