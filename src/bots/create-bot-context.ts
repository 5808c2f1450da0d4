import { RunOutbox, type SendListener } from './run-sends';
import type { IntrabotApi } from '../api/create-api-client';
import type { Clock } from '../clock';
import { localDate } from '../clock/local-date';
import { InvalidInputError } from '../errors';
import type { EnqueueOptions } from '../outbox/outbox';
import type { OutboxEntryInput, PostMedia } from '../outbox/entry';
import { SEND_KINDS } from '../outbox/kinds/send-kinds';
import type { KvSpace } from '../store/kv';
import type { TemplateEngine } from '../templates';
import type { TraceContext } from '../tracing/spans';
import { parseOrThrow } from '../validation';
import {
  OutgoingMessageSchema,
  type BotContext,
  type BotLogger,
  type KindMethods,
  type BotStore,
  type OutgoingMessage,
  type SendReceipt,
  type TargetRef,
} from './context';
import type { BotManifest } from './manifest';
import { ask } from './conversations/ask';
import type { ConversationBook, PendingConversation } from './conversations/pending';
import { asBot, entryForTarget, wallEntry, type TargetContent, type TargetEntryDeps, type WallRef } from './target-entry';

/** Where `ctx.reply` answers: the post or comment that triggered the handler. */
export interface ReplySource {
  postId: number;
  wallId?: number | undefined;
  authorId?: number | undefined;
  authorName?: string | undefined;
}

/** What writes go into: the outbox (or, in tests, anything that records entries). */
export interface EntrySink {
  enqueue(entry: OutboxEntryInput, options?: EnqueueOptions): Promise<{ id: string }>;
  stashMedia(data: Buffer | Uint8Array): Promise<string>;
}

/** Everything one handler run's context is made of, passed in once. */
export interface BotContextDeps<Config> {
  tenant: { id: string; timezone: string; locale?: string };
  /** The runtime's clock: `ctx.now()`, `ctx.today()` and `ctx.dateOf()` read it. */
  clock: Pick<Clock, 'now'>;
  bot: { name: string; manifest: BotManifest; userId: number | undefined };
  /** What `ctx.locals` starts with: what the runtime hands middleware (the audit trail). */
  locals?: Record<string, unknown> | undefined;
  config: Config;
  api: IntrabotApi;
  sink: EntrySink;
  kv: KvSpace;
  templates: TemplateEngine;
  log: BotLogger;
  signal: AbortSignal;
  /**
   * A wall given by name, for a send: its id when the tenant's walls were listed, its name for the
   * sender to resolve when they never were; throws (naming `field`) when the tenant has no such wall.
   * Never a platform request, so a send is queued at once.
   */
  wallOf(name: string, field: string): Promise<WallRef>;
  /** A short-lived URL the platform can download a local file or bytes from (incoming-webhook media). */
  fileUrl?(file: { path: string } | { data: Uint8Array; filename: string }): Promise<string>;
  source?: ReplySource | undefined;
  /** Where `ctx.ask` keeps its questions, the bot's conversation steps, and who is told of a new one (the timeouts). */
  conversations?: { book: ConversationBook; steps: readonly string[]; opened?: ((conversation: PendingConversation) => void) | undefined } | undefined;
  /** Where `ctx.progress` goes (`intrabot run`'s progress line); a debug log line when absent. */
  progress?: ((text: string) => void) | undefined;
  /** The run's trace context (tracing on): `ctx.traceContext`, for the bot's own spans; the run's sends and API requests go under it. */
  trace?: TraceContext | undefined;
  /** Told of each entry the run queued, once queued (the runtime's delivery history). */
  told?: SendListener | undefined;
  /** Each send names the bot (the runtime's outbox holds a paused bot's entries by it). */
  namesBot?: boolean | undefined;
}

export type { WallRef } from './target-entry';
export { configuredIncomingSecretName } from './target-entry';

type Rendered = { text: string; media: NonNullable<Exclude<OutgoingMessage, string>['media']> };

/**
 * The handler context: every send becomes a durable outbox entry (resolving once queued, not once
 * delivered), targets are resolved from the manifest, templates rendered with the bot's engine.
 */
export function createBotContext<Config>(deps: BotContextDeps<Config>): BotContext<Config> {
  const { tenant, bot } = deps;
  const locals: Record<string, unknown> = { ...deps.locals };
  const sink = new RunOutbox(deps.sink, { locals, bot: deps.namesBot ? bot.name : undefined, trace: deps.trace, told: deps.told });
  const base = { tenant: tenant.id };

  const render = async (message: OutgoingMessage): Promise<Rendered> => {
    const parsed = parseOrThrow(OutgoingMessageSchema, message, 'message');
    if (typeof parsed === 'string') return { text: parsed, media: [] };
    const text = parsed.template ? deps.templates.render(parsed.template, parsed.data ?? {}) : (parsed.text ?? '');
    return { text, media: parsed.media ?? [] };
  };

  const postMedia = async (media: Rendered['media']): Promise<PostMedia[] | undefined> => {
    if (!media.length) return undefined;
    const out: PostMedia[] = [];
    for (const item of media) {
      if (item.path) out.push({ type: item.type, path: item.path });
      else if (item.data) out.push({ type: item.type, blobRef: await sink.stashMedia(item.data), filename: item.filename ?? 'file' });
      else if (item.url) {
        // the posts API takes uploads only: fetch the file once and let the outbox upload it
        const res = await fetch(item.url, { signal: deps.signal });
        if (!res.ok) throw new InvalidInputError('media.url', `media.url: ${item.url} answered ${res.status}`);
        const filename = fileNameOf(item.url);
        out.push({ type: item.type, blobRef: await sink.stashMedia(Buffer.from(await res.arrayBuffer())), filename });
      }
    }
    return out;
  };

  // incoming webhooks download what they send: local files and bytes are served at signed URLs
  const incomingMedia = async (media: Rendered['media']): Promise<{ url: string; type: 'image' | 'video' | 'document' }[] | undefined> => {
    if (!media.length) return undefined;
    const out: { url: string; type: 'image' | 'video' | 'document' }[] = [];
    for (const item of media) {
      if (item.url) out.push({ url: item.url, type: item.type });
      else if (!deps.fileUrl) throw new InvalidInputError('media.path', 'media.path: this runtime cannot serve files to the platform; give a url');
      else out.push({ url: await deps.fileUrl(item.path ? { path: item.path } : { data: item.data!, filename: item.filename ?? 'file' }), type: item.type });
    }
    return out;
  };

  const targets: TargetEntryDeps = { tenant: tenant.id, bot, wallOf: deps.wallOf };
  const contentOf =
    (message: OutgoingMessage) =>
    async (kind: 'post' | 'incoming'): Promise<TargetContent> => {
      const { text, media } = await render(message);
      return { text, ...(kind === 'post' ? { postMedia: await postMedia(media) } : { incomingMedia: await incomingMedia(media) }) };
    };
  const toWall = async (wall: WallRef, message: OutgoingMessage): Promise<SendReceipt> => {
    const { entry, options } = await wallEntry(targets, wall, await contentOf(message)('post'));
    return sink.enqueue(entry, options);
  };
  const send = async (ref: TargetRef, message: OutgoingMessage): Promise<SendReceipt> => {
    const { entry, options } = await entryForTarget(targets, ref, contentOf(message));
    return sink.enqueue(entry, options);
  };

  /** A comment is text only (spec: Comments, body `{ body }`): media would be lost, so it is refused. */
  const commentText = async (message: OutgoingMessage, what: string): Promise<string> => {
    const { text, media } = await render(message);
    if (media.length > 0)
      throw new InvalidInputError(
        'media',
        `media: ${what} writes a comment, and comments carry text only; post it (ctx.post) or send it as a direct message (ctx.dm)`,
      );
    return text;
  };

  const reply = async (message: OutgoingMessage): Promise<SendReceipt> => {
    const source = deps.source;
    if (!source) throw new InvalidInputError('reply', 'ctx.reply answers an event or a command; a job has nothing to answer: use ctx.post');
    if (bot.manifest.reply === 'post') {
      if (source.wallId === undefined) throw new InvalidInputError('reply', 'the triggering event carries no wall to post on');
      return toWall({ wallId: source.wallId }, message);
    }
    if (bot.manifest.reply === 'dm') {
      if (source.authorId === undefined) throw new InvalidInputError('reply', 'a direct-message reply needs the author of the triggering post');
      return dm(source.authorId, message);
    }
    // spec: Comments — comments carry no bot_user_id: the comment is the token's user's
    const text = await commentText(message, 'ctx.reply (the bot answers with comments)');
    return sink.enqueue({ kind: 'comment', ...base, postId: source.postId, ...(source.wallId ? { wallId: source.wallId } : {}), body: text });
  };

  const dm = async (userId: number, message: OutgoingMessage): Promise<SendReceipt> => {
    const { text, media } = await render(message);
    const files = await incomingMedia(media);
    return sink.enqueue({ kind: 'dm', ...base, userId, ...asBot(bot), text, ...(files ? { media: files } : {}) });
  };

  const askDeps = deps.conversations && {
    ...deps.conversations,
    clock: deps.clock,
    tenant: tenant.id,
    bot: bot.name,
    source: deps.source,
    render: async (prompt: string | { template: string; data?: Record<string, unknown> }) => (await render(prompt)).text,
    reply: (text: string) => reply(text),
  };

  return {
    post: send,
    reply,
    ask: async (request) => {
      if (!askDeps) throw new InvalidInputError('ask', 'ctx.ask: this context keeps no conversations');
      return ask(askDeps, request);
    },
    async comment(postId, message) {
      const text = await commentText(message, 'ctx.comment');
      return sink.enqueue({ kind: 'comment', ...base, postId, body: text });
    },
    dm,
    async chat(target, message) {
      const name = typeof target === 'string' ? target : chatTargetName(bot.manifest, target);
      return send(name, message);
    },
    render: async (template, data = {}) => deps.templates.render(template, data),
    ...(kindMethods(sink, tenant.id) as unknown as KindMethods),
    api: deps.api,
    store: botStore(deps.kv),
    log: deps.log,
    progress: (text) => (deps.progress ? deps.progress(text) : deps.log.debug(text)),
    now: () => deps.clock.now(),
    today: () => localDate(deps.clock.now(), tenant.timezone),
    dateOf: (instant) => localDate(instant, tenant.timezone),
    config: deps.config,
    tenant: { id: tenant.id, timezone: tenant.timezone, locale: tenant.locale ?? 'en' },
    bot: { name: bot.name, userId: bot.userId },
    signal: deps.signal,
    locals,
    traceContext: deps.trace,
  };
}

/** The kinds of send with a `ctx` method of their own (`contextMethod`), found once. */
const KIND_METHODS = SEND_KINDS.flatMap((kind) => (kind.contextMethod ? [kind.contextMethod] : []));

/** The `ctx` methods of the kinds of send that declare one: each queues its kind's entry. */
function kindMethods(sink: EntrySink, tenant: string): Record<string, (input: unknown) => Promise<SendReceipt>> {
  return Object.fromEntries(KIND_METHODS.map((method) => [method.name, async (input: unknown) => sink.enqueue(method.entry(tenant, input as never))]));
}

function chatTargetName(manifest: BotManifest, chatId: number): string {
  for (const [name, target] of Object.entries(manifest.targets)) {
    if ('incoming' in target && target.incoming.action === 'chat_message' && Number(target.incoming.chat_id) === chatId) return name;
  }
  throw new InvalidInputError('chat', `no target of this bot posts to chat ${chatId}: add { chat: ${chatId} } to its targets`);
}

/** `ctx.store`: the bot's key-value space, as the `BotStore` a handler sees. */
export function botStore(kv: KvSpace): BotStore {
  return {
    get: async <T>(key: string) => (await kv.get(key)) as T | undefined,
    set: async (key, value, options) => kv.set(key, value as never, options?.ttlMs ? { ttlMs: options.ttlMs } : {}),
    delete: async (key) => {
      await kv.delete(key);
    },
  };
}

/** The file name a media URL ends with, decoded; a malformed escape (`%E0%A4%A`) is kept as written rather than thrown. */
function fileNameOf(url: string): string {
  const last = new URL(url).pathname.split('/').pop() || 'file';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
