import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiNotFoundError, ApiValidationError } from '../../src/api/errors';
import type { IncomingWebhookCreate } from '../../src/api/schemas/incoming-webhook';
import type { IntrabotApi } from '../../src/api/create-api-client';
import { formsModule } from '../../src/sandbox/routes/forms';
import { messagingModule } from '../../src/sandbox/routes/messaging';
import { MESSAGING_KIND } from '../../src/sandbox/routes/messaging/messaging-records';
import { POSTS_KIND, type MediaRecord, type PostRecord } from '../../src/sandbox/routes/posts/records';
import { CONTENT_KIND } from '../../src/sandbox/routes/content/records';
import { webhooksModule } from '../../src/sandbox/routes/webhooks';
import { newUser } from '../../src/sandbox/seed/base';
import { KIND } from '../../src/sandbox/state/records';
import { downloadMedia, MEDIA_DOWNLOAD_TIMEOUT_MS } from '../../src/sandbox/routes/messaging/media-download';
import { SandboxHttpError } from '../../src/sandbox/http/sandbox-error';
import { START } from './deliveries-helpers';
import { failure, useHttpSandbox, type HttpSandbox } from './http-harness';

const MODULES = [webhooksModule, messagingModule, formsModule];

let media: Server | undefined;
afterEach(async () => {
  if (media) {
    media.closeAllConnections();
    await new Promise((resolve) => media?.close(resolve));
  }
  media = undefined;
});

/** Serves /a.png, /b.png (images), /c.mp4 (video), /doc.pdf and /q3%E0%A4%A.pdf (a malformed escape); anything else 404. */
async function mediaServer(): Promise<string> {
  const files: Record<string, [string, Buffer]> = {
    '/a.png': ['image/png', Buffer.from('89504e470d0a1a0a0000000d4948445200000002000000030806000000', 'hex')],
    '/b.png': ['image/png', Buffer.from('89504e470d0a1a0a', 'hex')],
    '/c.mp4': ['video/mp4', Buffer.from('video-bytes')],
    '/doc.pdf': ['application/pdf', Buffer.from('%PDF-1.4')],
    '/q3%E0%A4%A.pdf': ['application/pdf', Buffer.from('%PDF-1.4')],
  };
  media = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => media?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
}

/**
 * A wall, a chat room, a bot and an employee. This sandbox has only the webhook, messaging and forms
 * modules (no directory or posts routes), so they are written in process, and what a trigger made on
 * a wall or in the calendar is read back in process too.
 */
function setup(h: HttpSandbox) {
  const ctx = h.sandbox.ctx;
  const now = ctx.now();
  const wall = ctx.db.insert(KIND.walls, { name: 'Ops', group_ids: [], created_at: now });
  const chat = ctx.db.insert(MESSAGING_KIND.chats, { name: 'Ops alerts', created_at: now });
  const bot = ctx.db.insert(KIND.users, newUser(ctx, { kind: 'bot', first_name: 'Alert', last_name: 'Bot', name: 'Alert Bot', email: 'bot@x.example' }));
  const employee = ctx.db.insert(KIND.users, newUser(ctx, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@x.example' }));
  return { wall, chat, bot, employee };
}

type Target = Omit<IncomingWebhookCreate, 'name'>;

describe('incoming webhook management', () => {
  const h = useHttpSandbox({ seed: 'empty', start: START, modules: MODULES });
  const create = (body: Target, api: IntrabotApi = h.api) => api.incomingWebhooks.create({ name: 'alerts', ...body });

  it('returns url and token only in the create response (spec: Incoming webhooks)', async () => {
    const { chat } = setup(h);
    const data = await create({ action: 'chat_message', chat_id: chat.id });
    expect(data.url).toBe(`${h.baseUrl}/api/open/v1/incoming/${data.token}`);
    const one = await h.api.incomingWebhooks.get(data.id);
    expect(one).toMatchObject({ action: 'chat_message', chat_id: chat.id, revoked_at: null });
    expect(JSON.stringify(one)).not.toContain(data.token);
    expect(JSON.stringify(await h.api.incomingWebhooks.list())).not.toContain(data.token);
    // and not on the wire either
    for (const path of [`/incoming-webhooks/${data.id}`, '/incoming-webhooks']) {
      const res = await h.raw('GET', path);
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(data.token);
    }
  });

  it('answers 422 naming the target the action needs (spec: Incoming webhooks; DESIGN.md)', async () => {
    const { bot, employee } = setup(h);
    // missing targets are refused by the client before sending, so those go over raw HTTP
    const wall = await h.raw('POST', '/incoming-webhooks', { body: { name: 'alerts', action: 'wall_post' } });
    expect(wall.status).toBe(422);
    expect(wall.json()).toMatchObject({ message: expect.stringContaining('wall_id') });
    const dm = await h.raw('POST', '/incoming-webhooks', { body: { name: 'alerts', action: 'direct_message', user_id: employee.id } });
    expect(dm.status).toBe(422);
    expect(dm.json()).toMatchObject({ message: expect.stringContaining('bot_user_id') });
    const notBot = await failure(create({ action: 'direct_message', user_id: employee.id, bot_user_id: employee.id }));
    expect(notBot).toBeInstanceOf(ApiValidationError);
    expect(notBot).toMatchObject({ field: 'bot_user_id' });
    const missingWall = await failure(create({ action: 'wall_post', wall_id: 999 }));
    expect(missingWall).toBeInstanceOf(ApiValidationError);
    expect(missingWall).toMatchObject({ field: 'wall_id' });
    await expect(create({ action: 'direct_message', user_id: employee.id, bot_user_id: bot.id })).resolves.toMatchObject({ action: 'direct_message' });
  });

  it('shows webhooks only to the token that created them (spec: Incoming webhooks)', async () => {
    const { chat } = setup(h);
    const { id } = await create({ action: 'chat_message', chat_id: chat.id });
    const other = await h.clientWith(['read:incoming_webhooks', 'write:incoming_webhooks']);
    await expect(other.incomingWebhooks.get(id)).rejects.toBeInstanceOf(ApiNotFoundError);
    await expect(other.incomingWebhooks.revoke(id)).rejects.toBeInstanceOf(ApiNotFoundError);
    expect((await other.incomingWebhooks.list()).data).toHaveLength(0);
  });

  it('stops the URL working once revoked: 404 (spec: Incoming webhooks)', async () => {
    const { chat } = setup(h);
    const { id, token } = await create({ action: 'chat_message', chat_id: chat.id });
    expect((await h.api.incomingWebhooks.revoke(id)).revoked_at).not.toBeNull();
    await expect(h.api.incomingWebhooks.send(token, { text: 'hi' })).rejects.toBeInstanceOf(ApiNotFoundError);
    const res = await h.raw('POST', `/incoming/${token}`, { body: { text: 'hi' }, token: null });
    expect(res.status).toBe(404);
    expect(res.text).toBe('');
    await expect(h.api.incomingWebhooks.send('no-such-token', { text: 'hi' })).rejects.toBeInstanceOf(ApiNotFoundError);
    await expect(h.api.incomingWebhooks.update(id, { name: 'again' })).rejects.toBeInstanceOf(ApiValidationError);
  });

  it('changes the name and target on update (spec: Incoming webhooks)', async () => {
    const { chat } = setup(h);
    const second = h.sandbox.ctx.db.insert(MESSAGING_KIND.chats, { name: 'General', created_at: h.sandbox.ctx.now() });
    const { id, token } = await create({ action: 'chat_message', chat_id: chat.id });
    expect(await h.api.incomingWebhooks.update(id, { name: 'moved', chat_id: second.id })).toMatchObject({ name: 'moved', chat_id: second.id });
    await h.api.incomingWebhooks.send(token, { text: 'to general' });
    expect((await h.platform.messages({ chat_id: second.id })).map((m) => m.text)).toEqual(['to general']);
  });
});

describe('incoming webhook trigger', () => {
  const h = useHttpSandbox({ seed: 'empty', start: START, modules: MODULES });
  const tokenOf = async (body: Target) => (await h.api.incomingWebhooks.create({ name: 'alerts', ...body })).token;
  /** A trigger over raw HTTP: for payloads the client refuses, and for what the client does not show (status, headers). */
  const rawTrigger = (token: string, body: Record<string, unknown>) => h.raw('POST', `/incoming/${token}`, { body, token: null });

  it('posts a chat message into the bound chat room with downloaded media (spec: Incoming webhooks)', async () => {
    const { chat } = setup(h);
    const base = await mediaServer();
    const token = await tokenOf({ action: 'chat_message', chat_id: chat.id });
    const result = await h.api.incomingWebhooks.send(token, {
      text: 'CPU high',
      media: [
        { url: `${base}/a.png`, type: 'image' },
        { url: `${base}/b.png`, type: 'image' },
      ],
    });
    expect(result).toMatchObject({ action: 'chat_message', id: expect.any(Number) });
    const [m] = await h.platform.messages({ kind: 'chat' });
    expect(m).toMatchObject({ kind: 'chat', chat_id: chat.id, text: 'CPU high', source: 'incoming_webhook' });
    expect(m!.media).toEqual([expect.objectContaining({ url: `${base}/a.png`, mime_type: 'image/png' }), expect.objectContaining({ url: `${base}/b.png` })]);
    // the status and the `ok` flag of the answer, which the client does not surface
    const again = await rawTrigger(token, { text: 'again' });
    expect(again.status).toBe(200);
    expect(again.json()).toMatchObject({ ok: true, data: { action: 'chat_message', id: expect.any(Number) } });
  });

  it('answers 422 for mixed media types in a chat message (spec: Incoming webhooks)', async () => {
    const { chat } = setup(h);
    const base = await mediaServer();
    const token = await tokenOf({ action: 'chat_message', chat_id: chat.id });
    const error = await failure(
      h.api.incomingWebhooks.send(token, {
        text: 'mixed',
        media: [
          { url: `${base}/a.png`, type: 'image' },
          { url: `${base}/c.mp4`, type: 'video' },
        ],
      }),
    );
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ platformMessage: expect.stringContaining('media') });
    expect(await h.platform.messages()).toHaveLength(0);
  });

  it('answers 422 naming the URL whose download failed, and stores nothing (spec: Incoming webhooks)', async () => {
    const { chat } = setup(h);
    const base = await mediaServer();
    const token = await tokenOf({ action: 'chat_message', chat_id: chat.id });
    const error = await failure(
      h.api.incomingWebhooks.send(token, {
        text: 'x',
        media: [
          { url: `${base}/a.png`, type: 'image' },
          { url: `${base}/missing.png`, type: 'image' },
        ],
      }),
    );
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'media.1.url', platformMessage: expect.stringContaining(`${base}/missing.png`) });
    expect(await h.platform.messages()).toHaveLength(0);
  });

  it('answers 422 for more than 10 media items (spec: Limits, Media per incoming webhook payload)', async () => {
    const { chat } = setup(h);
    const token = await tokenOf({ action: 'chat_message', chat_id: chat.id });
    const items = Array.from({ length: 11 }, (_, i) => ({ url: `http://127.0.0.1:9/${i}.png`, type: 'image' }));
    // the client refuses more than 10 items before sending, so raw HTTP
    const res = await rawTrigger(token, { text: 'x', media: items });
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({ message: expect.stringContaining('media') });
  });

  it('creates a wall post with mixed media as the bot, fires post.created and answers without an id (spec: Incoming webhooks)', async () => {
    const { wall, bot } = setup(h);
    const base = await mediaServer();
    const token = await tokenOf({ action: 'wall_post', wall_id: wall.id, bot_user_id: bot.id });
    const res = await rawTrigger(token, {
      text: 'Deploy done',
      media: [
        { url: `${base}/a.png`, type: 'image' },
        { url: `${base}/doc.pdf`, type: 'document' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ ok: true, data: { action: 'wall_post', id: null } });
    const db = h.sandbox.ctx.db;
    const [post] = db.all<PostRecord>(POSTS_KIND.posts);
    expect(post).toMatchObject({ wall_id: wall.id, body: 'Deploy done', author_id: bot.id, status: 'published' });
    expect(post!.media_ids.map((id) => db.get<MediaRecord>(POSTS_KIND.media, id)?.mime_type)).toEqual(['image/png', 'application/pdf']);
    expect(h.events).toEqual([expect.objectContaining({ event: 'post.created', entityIds: { wall: wall.id } })]);
    // and through the client, which reads the same answer
    expect(await h.api.incomingWebhooks.send(token, { text: 'again' })).toEqual({ action: 'wall_post', id: null });
  });

  it('keeps a media file name with a malformed escape as written instead of failing the send', async () => {
    const { wall, bot } = setup(h);
    const base = await mediaServer();
    const token = await tokenOf({ action: 'wall_post', wall_id: wall.id, bot_user_id: bot.id });
    const res = await rawTrigger(token, { text: 'Q3 report', media: [{ url: `${base}/q3%E0%A4%A.pdf`, type: 'document' }] });
    expect(res.status).toBe(200);
    const db = h.sandbox.ctx.db;
    const [post] = db.all<PostRecord>(POSTS_KIND.posts);
    expect(post!.media_ids.map((id) => db.get<MediaRecord>(POSTS_KIND.media, id)?.filename)).toEqual(['q3%E0%A4%A.pdf']);
  });

  it('creates a wall post as the creating token user when no bot is bound (spec: Incoming webhooks; Post.author)', async () => {
    const { wall } = setup(h);
    const token = await tokenOf({ action: 'wall_post', wall_id: wall.id });
    await h.api.incomingWebhooks.send(token, { text: 'plain' });
    expect(h.sandbox.ctx.db.all<PostRecord>(POSTS_KIND.posts)[0]?.author_id).toBe(1);
  });

  it('sends a direct message from the bound bot to the bound user (spec: Incoming webhooks, direct_message)', async () => {
    const { bot, employee } = setup(h);
    const token = await tokenOf({ action: 'direct_message', user_id: employee.id, bot_user_id: bot.id });
    expect(await h.api.incomingWebhooks.send(token, { text: 'Your build failed' })).toMatchObject({ action: 'direct_message' });
    const [m] = await h.platform.messages({ kind: 'direct', user_id: employee.id });
    expect(m).toMatchObject({ text: 'Your build failed', user_id: employee.id, sender: expect.objectContaining({ id: bot.id, type: 'bot' }) });
  });

  it('creates a calendar entry with the Default event type rule of POST /calendar-entries (spec: Incoming webhooks; Calendar entries)', async () => {
    const { bot } = setup(h);
    const token = await tokenOf({ action: 'calendar_entry', bot_user_id: bot.id });
    const none = await failure(h.api.incomingWebhooks.send(token, { title: 'Freeze', starts_at: '2026-12-20' }));
    expect(none).toBeInstanceOf(ApiValidationError);
    expect(none).toMatchObject({ field: 'calendar_event_type_id' });
    const ctx = h.sandbox.ctx;
    ctx.db.insert(CONTENT_KIND.calendarEventTypes, { name: 'Default', color: null, is_published: true, created_at: ctx.now(), updated_at: ctx.now() });
    const ok = await h.api.incomingWebhooks.send(token, { title: 'Freeze', starts_at: '2026-12-20' });
    expect(ctx.db.get(CONTENT_KIND.calendarEntries, ok.id as number)).toMatchObject({ title: 'Freeze', starts_at: '2026-12-20', author_id: bot.id });
  });

  it('limits each webhook to 60 requests a minute, separately from others (spec: Limits; Incoming webhooks)', async () => {
    // the 429 itself is what is checked, so no client (it would pace under the limit)
    await h.control.settings({ rate_limit_per_minute: 60 });
    const { chat } = setup(h);
    const first = await tokenOf({ action: 'chat_message', chat_id: chat.id });
    const second = await tokenOf({ action: 'chat_message', chat_id: chat.id });
    for (let i = 0; i < 60; i++) expect((await rawTrigger(first, { text: `m${i}` })).status).toBe(200);
    const limited = await rawTrigger(first, { text: 'one too many' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await rawTrigger(second, { text: 'other hook' })).status).toBe(200);
    await h.control.advance(60);
    expect((await rawTrigger(first, { text: 'next minute' })).status).toBe(200);
  });
});

describe('media download', () => {
  it('gives each URL 15 seconds and reports one that does not answer in time by its URL (spec: Limits, Incoming media download timeout)', async () => {
    expect(MEDIA_DOWNLOAD_TIMEOUT_MS).toBe(15_000);
    media = createServer(() => {
      // never answers
    });
    await new Promise<void>((resolve) => media?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(media.address() as AddressInfo).port}/slow.png`;
    const error = await downloadMedia([{ url, type: 'image' }], 150).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxHttpError);
    expect((error as SandboxHttpError).status).toBe(422);
    expect((error as SandboxHttpError).message).toContain(url);
    expect((error as SandboxHttpError).message).toContain('no answer within');
  });
});
