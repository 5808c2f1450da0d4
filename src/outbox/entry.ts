import { z } from 'zod';
import { IncomingWebhookActionSchema, IncomingMediaItemSchema } from '../api/schemas/incoming-webhook';
import { InvalidInputError } from '../errors';
import { JsonValueSchema } from '../store/json';
import { TraceCarrierSchema } from '../tracing/trace-carrier';

/**
 * What the outbox sends: one entry per write a bot makes (DESIGN.md: Rules the runtime keeps,
 * "Everything sent goes through the outbox"). Entries are JSON in the store, so they hold
 * references, never secrets: an incoming webhook is named by the `store.secrets` entry that holds
 * its URL, and a file by its path or by a blob stashed in the store (`Outbox.stashMedia`).
 */

const TenantSchema = z.string().min(1);
const IdSchema = z.number().int().positive();
const TextSchema = z.string().trim().min(1, 'must not be empty');

/** A file for a wall post: uploaded once through POST /media (spec: Media), its id reused on retry. */
export const PostMediaSchema = z
  .strictObject({
    type: z.enum(['image', 'video', 'document']),
    /** A local file. */
    path: z.string().min(1).optional(),
    /** A buffer stashed with `Outbox.stashMedia` (kv key). */
    blobRef: z.string().min(1).optional(),
    /** The stored name; defaults to the file's name for a path. */
    filename: z.string().min(1).optional(),
  })
  .refine((m) => (m.path === undefined) !== (m.blobRef === undefined), { error: 'a post media item needs exactly one of path or blobRef' })
  .refine((m) => m.path !== undefined || m.filename !== undefined, { error: 'filename is required with blobRef', path: ['filename'] });
export type PostMedia = z.infer<typeof PostMediaSchema>;

const BotNameSchema = z.string().min(1);

/**
 * A wall post. A bot's post names the bot: when its user was not known yet (queued before provisioning
 * finished) the sender fills in `botUserId` before sending, and a wall known only by name (the walls
 * were never listed) is resolved by the sender too.
 */
export const PostEntrySchema = z
  .strictObject({
    kind: z.literal('post'),
    tenant: TenantSchema,
    wallId: IdSchema.optional(),
    wallName: z.string().min(1).optional(),
    body: TextSchema,
    bot: BotNameSchema.optional(),
    botUserId: IdSchema.optional(),
    // spec: Limits — media per post: 10
    media: z.array(PostMediaSchema).max(10).optional(),
    /** An alert input's firing message: the refs of its alerts, recorded with the post's id once created (their resolutions answer it). */
    alert: z.strictObject({ refs: z.array(z.string().min(1)).min(1) }).optional(),
  })
  .refine((e) => (e.wallId === undefined) !== (e.wallName === undefined), { error: 'a post needs exactly one of wallId or wallName', path: ['wallId'] });

export const CommentEntrySchema = z.strictObject({
  kind: z.literal('comment'),
  tenant: TenantSchema,
  postId: IdSchema,
  /** When known, the comment queues behind the posts of that wall, so a reply never overtakes them. */
  wallId: IdSchema.optional(),
  body: TextSchema,
});

/** A direct message, always sent by a bot user: `botUserId`, or the `bot` whose user the sender fills in. */
export const DmEntrySchema = z
  .strictObject({
    kind: z.literal('dm'),
    tenant: TenantSchema,
    userId: IdSchema,
    bot: BotNameSchema.optional(),
    botUserId: IdSchema.optional(),
    text: TextSchema,
    media: z.array(IncomingMediaItemSchema).max(10).optional(),
  })
  .refine((e) => e.botUserId !== undefined || e.bot !== undefined, { error: 'a direct message needs botUserId or bot', path: ['botUserId'] });

export const IncomingEntrySchema = z.strictObject({
  kind: z.literal('incoming'),
  tenant: TenantSchema,
  /** `urlSecretRef` names the `store.secrets` entry holding the webhook URL (the URL carries its token). */
  webhook: z.strictObject({ id: z.string().min(1), urlSecretRef: z.string().min(1) }),
  action: IncomingWebhookActionSchema,
  /** The trigger body for the action (spec: Incoming webhooks): `{ text, media? }` or a calendar entry. */
  payload: z.record(z.string(), JsonValueSchema),
});

export const NotificationEntrySchema = z.strictObject({
  kind: z.literal('notification'),
  tenant: TenantSchema,
  notification: z.record(z.string(), JsonValueSchema),
});

export const AnnouncementEntrySchema = z.strictObject({
  kind: z.literal('announcement'),
  tenant: TenantSchema,
  announcement: z.record(z.string(), JsonValueSchema),
});

export const EventEntrySchema = z.strictObject({
  kind: z.literal('event'),
  tenant: TenantSchema,
  event: z.record(z.string(), JsonValueSchema),
});

export const AwardEntrySchema = z.strictObject({
  kind: z.literal('award'),
  tenant: TenantSchema,
  achievementId: IdSchema,
  rows: z.array(z.record(z.string(), JsonValueSchema)).min(1),
});

/** Any other write, by endpoint id (`walls.*` are reads; `posts.update`, `chatMessages.pin`...). */
export const ApiEntrySchema = z.strictObject({
  kind: z.literal('api'),
  tenant: TenantSchema,
  endpointId: z.string().min(1),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  query: z.record(z.string(), JsonValueSchema).optional(),
  body: JsonValueSchema.optional(),
});

export const OutboxEntrySchema = z.discriminatedUnion('kind', [
  PostEntrySchema,
  CommentEntrySchema,
  DmEntrySchema,
  IncomingEntrySchema,
  NotificationEntrySchema,
  AnnouncementEntrySchema,
  EventEntrySchema,
  AwardEntrySchema,
  ApiEntrySchema,
]);
export type OutboxEntry = z.infer<typeof OutboxEntrySchema>;
export type OutboxEntryInput = z.input<typeof OutboxEntrySchema>;
export type OutboxKind = OutboxEntry['kind'];
export const OUTBOX_KINDS = OutboxEntrySchema.options.map((o) => o.shape.kind.value);

/** What to do when a write the platform cannot read back may or may not have arrived. */
export const OnUncertainSchema = z.enum(['resend', 'drop']);
export type OnUncertain = z.infer<typeof OnUncertainSchema>;

/** The queue payload: the entry plus what the sender needs to decide about retries. */
export const OutboxRecordSchema = z.object({
  v: z.literal(1),
  entry: OutboxEntrySchema,
  /** No retry is scheduled past this time (ms on the store's clock); the entry goes to the dead letters. */
  deadlineAt: z.number(),
  onUncertain: OnUncertainSchema,
  /** Other entries' items merged into this one by coalescing are kept in kv, not here. */
  coalescible: z.boolean().default(true),
  /** The W3C trace context of the enqueue, when tracing is on: whoever sends the entry continues the trace. */
  trace: TraceCarrierSchema.optional().catch(undefined),
  /** Enqueued with a caller-chosen id: its delivery is remembered so the same id is not queued again. */
  keyed: z.boolean().optional(),
  /** The bot that queued it (when one did): held while that bot is paused. */
  bot: z.string().min(1).optional(),
});
export type OutboxRecord = z.infer<typeof OutboxRecordSchema>;

/** The bot an entry belongs to: the one that queued it, else the one it is sent as; undefined for neither. */
export function botOf(record: OutboxRecord): { tenant: string; bot: string } | undefined {
  const bot = record.bot ?? ('bot' in record.entry ? record.entry.bot : undefined);
  return bot === undefined ? undefined : { tenant: record.entry.tenant, bot };
}

/**
 * The queue target: entries with one target keep their order and go one at a time.
 * A comment with a known wall queues with that wall's posts: a reply never overtakes the post it
 * follows (or any earlier post on that wall); without the wall it keeps order with its post's comments.
 */
export function targetOf(entry: OutboxEntry): string {
  const t = entry.tenant;
  switch (entry.kind) {
    case 'post':
      // a wall known by name only keeps its own order until it is resolved
      return entry.wallId === undefined ? `${t}:wall-named:${entry.wallName?.toLowerCase()}` : `${t}:wall:${entry.wallId}`;
    case 'comment':
      return entry.wallId === undefined ? `${t}:post:${entry.postId}` : `${t}:wall:${entry.wallId}`;
    case 'dm':
      return `${t}:user:${entry.userId}`;
    case 'incoming':
      return `${t}:incoming:${entry.webhook.id}`;
    case 'notification':
      return `${t}:notifications`;
    case 'announcement':
      return `${t}:announcements`;
    case 'event':
      return `${t}:events`;
    case 'award':
      return `${t}:achievement:${entry.achievementId}`;
    case 'api':
      return `${t}:api:${entry.endpointId}`;
  }
}

type PostEntry = Extract<OutboxEntry, { kind: 'post' }>;
type DmEntry = Extract<OutboxEntry, { kind: 'dm' }>;

/** The wall a post goes to; a post whose wall is known by name only must have it resolved first (the runtime's sender does). */
export function sendableWallId(entry: PostEntry): number {
  if (entry.wallId !== undefined) return entry.wallId;
  throw new InvalidInputError('entry.wallName', `entry.wallName: the wall "${entry.wallName}" was never resolved to an id`);
}

/**
 * The bot user a post or direct message is sent as (undefined: a post of the token's user). An entry
 * that names its bot without the bot user is never sent: it would appear as the token's user.
 */
export function sendingBotUser(entry: PostEntry | DmEntry): number | undefined {
  if (entry.botUserId !== undefined || entry.bot === undefined) return entry.botUserId;
  throw new InvalidInputError('entry.botUserId', `entry.botUserId: the bot user of ${entry.bot} was never filled in`);
}

/** The text of an entry that coalescing may merge with its neighbours, or undefined when it cannot be merged. */
export function mergeableText(entry: OutboxEntry): string | undefined {
  if (entry.kind === 'post' && !entry.media?.length) return entry.body;
  if (entry.kind === 'dm' && !entry.media?.length) return entry.text;
  if (entry.kind === 'incoming' && entry.action !== 'calendar_entry' && !entry.payload.media && typeof entry.payload.text === 'string') {
    return entry.payload.text;
  }
  return undefined;
}

/** The same entry with `text` as its message (for a digest). */
export function withText(entry: OutboxEntry, text: string): OutboxEntry {
  if (entry.kind === 'post') return { ...entry, body: text };
  if (entry.kind === 'dm') return { ...entry, text };
  if (entry.kind === 'incoming') return { ...entry, payload: { ...entry.payload, text } };
  return entry;
}

/** Two entries can share a digest when they go the same way, as the same sender. */
export function sameChannel(a: OutboxEntry, b: OutboxEntry): boolean {
  if (a.kind !== b.kind || a.tenant !== b.tenant) return false;
  if (a.kind === 'post' && b.kind === 'post') return a.wallId === b.wallId && a.wallName === b.wallName && a.botUserId === b.botUserId && a.bot === b.bot;
  if (a.kind === 'dm' && b.kind === 'dm') return a.userId === b.userId && a.botUserId === b.botUserId && a.bot === b.bot;
  if (a.kind === 'incoming' && b.kind === 'incoming') return a.webhook.id === b.webhook.id && a.action === b.action;
  return false;
}
