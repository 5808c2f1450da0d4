import { CalendarEntryPayloadSchema, ChatMessagePayloadSchema, DirectMessagePayloadSchema, WallPostPayloadSchema } from '../../../api/schemas/incoming-webhook';
import { incomingWebhookEndpoints } from '../../../api/schemas/endpoints/incoming';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { notFound, validationError } from '../../http/sandbox-error';
import { validate } from '../../http/validate';
import { findUser } from '../../serialize/user';
import { KIND, type UserRecord } from '../../state/records';
import { createCalendarEntry } from '../content';
import { createPost } from '../posts/create';
import { imageSize, isAudio } from '../posts/media-store';
import { POSTS_KIND, type MediaRecord } from '../posts/records';
import { downloadMedia, storedMedia, type DownloadedMedia } from './media-download';
import { isReachableEmployee, requireBot, storeMessage } from './messages';
import { MESSAGING_KIND, type IncomingWebhookRecord } from './messaging-records';

/** What the trigger answers. spec: not shown — `{ ok, data: { action, id } }`; a wall post gives no id. */
type IncomingResult = { action: IncomingWebhookRecord['action']; id: number | null };

function author(ctx: SandboxContext, hook: IncomingWebhookRecord): UserRecord & { id: number } {
  const user = findUser(ctx, hook.author_id) as (UserRecord & { id: number }) | undefined;
  if (!user) throw notFound();
  return user;
}

async function chatMessage(ctx: SandboxContext, hook: IncomingWebhookRecord, body: unknown): Promise<IncomingResult> {
  // spec: Incoming webhooks — chat message media must all be one type (mixed gives 422)
  const payload = validate(ChatMessagePayloadSchema, body);
  if (hook.chat_id === null || !ctx.db.get(MESSAGING_KIND.chats, hook.chat_id)) throw notFound();
  const media = await downloadMedia(payload.media ?? []);
  const message = storeMessage(ctx, {
    kind: 'chat',
    chat_id: hook.chat_id,
    sender_id: hook.author_id,
    text: payload.text,
    media: storedMedia(media),
    source: 'incoming_webhook',
    incoming_webhook_id: hook.id,
  });
  return { action: 'chat_message', id: message.id };
}

async function directMessage(ctx: SandboxContext, hook: IncomingWebhookRecord, body: unknown): Promise<IncomingResult> {
  const payload = validate(DirectMessagePayloadSchema, body);
  // spec: Incoming webhooks — direct_message: "a bot user is always the sender"
  const bot = requireBot(ctx, hook.bot_user_id ?? 0);
  if (hook.user_id === null || !isReachableEmployee(findUser(ctx, hook.user_id)))
    throw validationError('user_id', 'the recipient is no longer a registered user');
  const media = await downloadMedia(payload.media ?? []);
  const message = storeMessage(ctx, {
    kind: 'direct',
    user_id: hook.user_id,
    sender_id: bot.id,
    text: payload.text,
    media: storedMedia(media),
    source: 'incoming_webhook',
    incoming_webhook_id: hook.id,
  });
  return { action: 'direct_message', id: message.id };
}

/** Downloaded files become media records of the posts module, attached as a gallery. */
function storePostMedia(ctx: SandboxContext, media: DownloadedMedia[]): number[] {
  return media.map((m, i) => {
    if (isAudio(m.mime_type)) throw validationError(`media.${i}.url`, `${m.url} is audio (${m.mime_type}); only images, videos and documents are accepted`);
    const size = m.type === 'image' ? imageSize(m.bytes) : null;
    const filename = fileNameOf(m.url);
    const record = ctx.db.insert(POSTS_KIND.media, {
      type: m.type,
      mime_type: m.mime_type,
      filename,
      size: m.size,
      width: size?.width ?? null,
      height: size?.height ?? null,
      data_base64: m.bytes.toString('base64'),
      created_at: ctx.now(),
    } satisfies Omit<MediaRecord, 'id'>);
    return record.id;
  });
}

async function wallPost(ctx: SandboxContext, hook: IncomingWebhookRecord, body: unknown): Promise<IncomingResult> {
  // spec: Incoming webhooks — for wall posts a mix of media types is accepted
  const payload = validate(WallPostPayloadSchema, body);
  if (hook.wall_id === null || !ctx.db.get(KIND.walls, hook.wall_id)) throw notFound();
  const media = await downloadMedia(payload.media ?? []);
  const writer = author(ctx, hook);
  ctx.db.transaction(() => {
    const mediaIds = storePostMedia(ctx, media);
    // createPost stores the post published at once and fires post.created, as the API does
    createPost(ctx, { wallId: hook.wall_id as number, body: payload.text, authorId: writer.id, mediaIds, origin: 'api' });
  });
  return { action: 'wall_post', id: null };
}

function calendarEntry(ctx: SandboxContext, hook: IncomingWebhookRecord, body: unknown): IncomingResult {
  // spec: Incoming webhooks — calendar_event_type_id follows the rule of POST /calendar-entries
  const payload = validate(CalendarEntryPayloadSchema, body);
  const entry = createCalendarEntry(ctx, payload, author(ctx, hook));
  return { action: 'calendar_entry', id: typeof entry.id === 'number' ? entry.id : null };
}

const ACTIONS: Record<
  IncomingWebhookRecord['action'],
  (ctx: SandboxContext, hook: IncomingWebhookRecord, body: unknown) => IncomingResult | Promise<IncomingResult>
> = {
  chat_message: chatMessage,
  direct_message: directMessage,
  wall_post: wallPost,
  calendar_entry: calendarEntry,
};

/**
 * spec: Incoming webhooks — `POST {base_url}/api/open/v1/incoming/{token}`: the token in the URL
 * authenticates (unknown or revoked: 404); 60 requests a minute per webhook (spec: Limits).
 */
export function registerIncomingTrigger(router: ApiRouter, ctx: SandboxContext): void {
  router.publicRoute(
    'POST',
    '/incoming/{token}',
    async (request, reply) => {
      const { token } = request.params as { token: string };
      const hook = ctx.db.find<IncomingWebhookRecord>(MESSAGING_KIND.incomingWebhooks, (w) => w.token === token);
      if (!hook || hook.revoked_at !== null) throw notFound();
      void reply.headers(ctx.limiter.hit(`incoming:${hook.id}`, ctx.settings.rate_limit_per_minute));
      const result = await ACTIONS[hook.action](ctx, hook, request.body);
      return { ok: true, data: result };
      // the status the client's endpoint catalog documents for this call (our choice; the spec does not say)
    },
    { status: incomingWebhookEndpoints['incomingWebhooks.send'].successStatus },
  );
}

/** The file name a media URL ends with, decoded; a malformed escape (`%E0%A4%A`) is kept as written, not a 500. */
function fileNameOf(url: string): string {
  const last = new URL(url).pathname.split('/').pop() || 'download';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
