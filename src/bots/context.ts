import { z } from 'zod';
import type { IntrabotApi } from '../api/create-api-client';
import type { AnnouncementCreateSchema } from '../api/schemas/announcement';
import type { EventCreateSchema } from '../api/schemas/event';
import type { NotificationCreateSchema } from '../api/schemas/notification';
import type { PostEditInput } from '../outbox/kinds/post-edit';
import { chooseSchema, isPlainObject } from './manifest-parts';
import type { AskReceipt, AskRequest } from './conversations/ask';
import type { TraceContext } from '../tracing/spans';

/** spec: Incoming webhooks / Posts: at most 10 media items per message. */
export const MAX_MEDIA_PER_MESSAGE = 10;

/**
 * One attachment: a public `url` the platform downloads, a local `path`, or the bytes themselves
 * (`data`, with a `filename`). Files and bytes are uploaded through POST /media for wall posts, and
 * served at a short-lived signed `/files/...` URL for incoming webhooks, which download what they send.
 */
export const OutgoingMediaSchema = z
  .strictObject({
    url: z.url({ protocol: /^https?$/ }).optional(),
    path: z.string().min(1).optional(),
    data: z.instanceof(Uint8Array).optional(),
    filename: z.string().min(1).optional(),
    type: z.enum(['image', 'video', 'document']),
  })
  .refine((media) => [media.url, media.path, media.data].filter((v) => v !== undefined).length === 1, {
    error: 'a media item needs exactly one of url, path or data',
  })
  .refine((media) => media.data === undefined || media.filename !== undefined, { error: 'data needs a filename', path: ['filename'] });

/**
 * What a bot sends: plain text, or `{ text }` / `{ template, data }`, optionally with media.
 * Text is sent as is (post bodies are plain text); a template is rendered with the bot's engine.
 *
 * @example ctx.post('team', 'Deploy finished')
 * @example ctx.post('team', { template: 'kudos/awarded', data: event.payload, media: [{ url, type: 'image' }] })
 */
const TextMessageSchema = z.string().trim().min(1, 'a message needs some text');

const StructuredMessageSchema = z
  .strictObject({
    text: z.string().trim().min(1).optional(),
    template: z.string().min(1).optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    media: z.array(OutgoingMediaSchema).max(MAX_MEDIA_PER_MESSAGE).optional(),
  })
  .refine((message) => (message.text === undefined) !== (message.template === undefined), {
    error: 'a message needs exactly one of text or template',
  });

export const OutgoingMessageSchema = chooseSchema<string | z.output<typeof StructuredMessageSchema>>((value) => {
  if (typeof value === 'string') return TextMessageSchema;
  if (isPlainObject(value)) return StructuredMessageSchema;
  return 'a message is text or { text | template, data?, media? }';
});

export type OutgoingMessage = string | z.input<typeof StructuredMessageSchema>;

/** A target: a name from the manifest's `targets`, or a wall given directly by id or name. */
export type TargetRef = string | { wall: number | string };

/** What the outbox answers once a message is durably queued (not yet delivered). */
export interface SendReceipt {
  /** The outbox entry; `intrabot outbox` shows its progress. */
  id: string;
}

/** A small key-value store, scoped to the bot and tenant. */
export interface BotStore {
  get<T = unknown>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, options?: { ttlMs?: number }): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Structured logging; secrets are redacted by the runtime. */
export interface BotLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The tenant (customer host) a handler runs for. */
export interface BotTenant {
  id: string;
  /** IANA zone for "today", cron defaults and dates in templates. */
  timezone: string;
  locale: string;
}

/**
 * The platform API, sharing the runtime's token, pacing and audit: the typed client
 * (`ctx.api.walls.get(3)`, `for await (const user of ctx.api.users.all())`), with `call` and
 * `paginate` for any endpoint of the catalog.
 */
export type BotApi = IntrabotApi;

export type NotificationInput = z.input<typeof NotificationCreateSchema>;
export type AnnouncementInput = z.input<typeof AnnouncementCreateSchema>;
export type EventInput = z.input<typeof EventCreateSchema>;
export type { PostEditInput };

/**
 * The methods of `ctx` that queue one kind of send from one argument: each is made from its kind's
 * `contextMethod` (src/outbox/kinds/), and declared here, where a bot's author reads what `ctx` offers.
 */
export interface KindMethods {
  /** A notification in employees' activity feeds. */
  notify(notification: NotificationInput): Promise<SendReceipt>;
  /** Publishes an announcement. */
  announce(announcement: AnnouncementInput): Promise<SendReceipt>;
  /** Creates a calendar event (a draft unless `is_published` or `publish_at` says otherwise). */
  createEvent(event: EventInput): Promise<SendReceipt>;
  /**
   * Replaces the body of a post on a wall (spec: Posts, PUT): queued behind that wall's posts and
   * comments, so it never overtakes the post, and sent again harmlessly after an uncertain attempt.
   *
   * @example await ctx.editPost({ wallId: cmd.source.wallId, postId: cmd.source.postId, body: `${post.body}\n\n✅ done` });
   */
  editPost(edit: PostEditInput): Promise<SendReceipt>;
}

/**
 * What every handler, command and job receives. Everything sent goes through the durable outbox:
 * a method resolves once the message is queued, and the runtime delivers it under the rate limit.
 *
 * @example
 * on: {
 *   'post.created': async (event, ctx) => {
 *     if (!event.payload.body.includes('deploy')) return;
 *     await ctx.reply(`${ctx.config.greeting}, ${event.payload.author.name}!`);
 *   },
 * }
 */
export interface BotContext<Config = Record<string, unknown>> extends KindMethods {
  /** Post on a wall target (as the bot user) or through an incoming-webhook target. */
  post(target: TargetRef, message: OutgoingMessage): Promise<SendReceipt>;
  /**
   * Answer the event or command being handled, as the manifest's `reply` says (comment, post or dm).
   * A job or report has nothing to answer: there it rejects; use `post` with a target.
   */
  reply(message: OutgoingMessage): Promise<SendReceipt>;
  /**
   * Asks a question where `reply` answers and waits for the answer without holding the handler: the
   * next comment of the user asked (`from`, default the author of what is being answered) on that post
   * runs the bot's `conversations[step]` with the answer and `state`; its `timeout` runs when nobody
   * answered in time. The question is kept in the store (restarts, replicas). See docs/conversations.md.
   *
   * @example
   * await ctx.ask({ prompt: `Deploy ${service} to ${env}? (yes/no)`, step: 'confirm', state: { service, env }, timeout: '10m' });
   */
  ask<State = unknown>(request: AskRequest<State>): Promise<AskReceipt>;
  /** Comment under a post. */
  comment(postId: number, message: OutgoingMessage): Promise<SendReceipt>;
  /** A direct message from the bot user to one employee. */
  dm(userId: number, message: OutgoingMessage): Promise<SendReceipt>;
  /** A chat-room message: a named target, or a chat id (through an incoming webhook). */
  chat(target: string | number, message: OutgoingMessage): Promise<SendReceipt>;
  /** Renders a template of this bot (or the shared `templates/`) with the tenant's zone and locale. */
  render(template: string, data?: Record<string, unknown>): Promise<string>;
  readonly api: BotApi;
  readonly store: BotStore;
  readonly log: BotLogger;
  /**
   * How far a long job has got (`'directory: 450 users read'`): `intrabot run` shows it as its progress
   * line; anywhere else it is a debug log line.
   */
  progress(text: string): void;
  /**
   * The current time, in milliseconds since the epoch, on the runtime's clock: the one a test moves
   * (`pair.platform.advance`, `testBot`'s `clock`), never `Date.now()`.
   *
   * @example
   * await ctx.store.set('last-seen', ctx.now());
   */
  now(): number;
  /**
   * Today's date in the tenant's time zone (`ctx.tenant.timezone`), as `YYYY-MM-DD`: the form the
   * platform's date fields take, and one that sorts and compares as a date. Near midnight it differs
   * from the UTC date: at 23:30 UTC on Dec 31 it is already `'2027-01-01'` in Berlin.
   *
   * @example
   * await ctx.api.achievements.award(7, [{ user_id: cmd.user.id, awarded_at: ctx.today() }]);
   */
  today(): string;
  /**
   * The date (`YYYY-MM-DD`) an instant falls on in the tenant's time zone: ms since the epoch, an ISO
   * 8601 string or a `Date`. For a job, prefer the day of its slot to today: a run caught up after
   * midnight still does the work of the day it was scheduled for.
   *
   * @example
   * jobs: { greet: async (ctx, run) => ctx.post('team', `Good morning! It is ${ctx.dateOf(run.slot)}.`) }
   */
  dateOf(instant: number | string | Date): string;
  /** The manifest's `config` (with this tenant's overrides), parsed by the bot's config schema. */
  readonly config: Config;
  readonly tenant: BotTenant;
  /** The bot's own name and its bot user on this tenant. */
  readonly bot: { name: string; userId: number | undefined };
  /** Aborted when the handler runs past its time limit or the runtime stops. */
  readonly signal: AbortSignal;
  /**
   * What middleware left for the steps and the handler after it, for this run only; read and write it
   * typed through a `defineLocal` key (docs/middleware.md).
   */
  readonly locals: Record<string, unknown>;
  /**
   * The OpenTelemetry context of this run's span while tracing is on (undefined otherwise): give it as
   * the parent of a span of your own, and that span joins the delivery's trace under the handler's. The
   * runtime keeps no "active" span of its own (docs/operations.md, Tracing), so a span started without
   * it begins a trace of its own. With tracing off the API's tracer records nothing, so the same code runs.
   *
   * @example
   * import { trace } from '@opentelemetry/api';
   * const span = trace.getTracer('kudos-bot').startSpan('score the post', {}, ctx.traceContext);
   * try { score(event.payload.body); } finally { span.end(); }
   */
  readonly traceContext?: TraceContext | undefined;
}
