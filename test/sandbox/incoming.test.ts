import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlatformEvent } from '../../src/sandbox/events';
import { MESSAGING_KIND } from '../../src/sandbox/routes/messaging/messaging-records';
import { POSTS_KIND, type MediaRecord, type PostRecord } from '../../src/sandbox/routes/posts/records';
import { CONTENT_KIND } from '../../src/sandbox/routes/content/records';
import { newUser } from '../../src/sandbox/seed/base';
import { KIND } from '../../src/sandbox/state/records';
import { downloadMedia, MEDIA_DOWNLOAD_TIMEOUT_MS } from '../../src/sandbox/routes/messaging/media-download';
import { SandboxHttpError } from '../../src/sandbox/http/sandbox-error';
import { API, AUTH, buildTestSandbox } from './deliveries-helpers';

type Sandbox = ReturnType<typeof buildTestSandbox>;
let sandbox: Sandbox | undefined;
let media: Server | undefined;
afterEach(async () => {
  await sandbox?.app.close();
  if (media) {
    media.closeAllConnections();
    await new Promise((resolve) => media?.close(resolve));
  }
  sandbox = undefined;
  media = undefined;
});

/** Serves /a.png, /b.png (images), /c.mp4 (video), /doc.pdf; anything else 404. */
async function mediaServer(): Promise<string> {
  const files: Record<string, [string, Buffer]> = {
    '/a.png': ['image/png', Buffer.from('89504e470d0a1a0a0000000d4948445200000002000000030806000000', 'hex')],
    '/b.png': ['image/png', Buffer.from('89504e470d0a1a0a', 'hex')],
    '/c.mp4': ['video/mp4', Buffer.from('video-bytes')],
    '/doc.pdf': ['application/pdf', Buffer.from('%PDF-1.4')],
  };
  media = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => media?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
}

function setup() {
  const s = buildTestSandbox();
  sandbox = s;
  const now = s.ctx.now();
  const wall = s.ctx.db.insert(KIND.walls, { name: 'Ops', group_ids: [], created_at: now });
  const chat = s.ctx.db.insert(MESSAGING_KIND.chats, { name: 'Ops alerts', created_at: now });
  const bot = s.ctx.db.insert(KIND.users, newUser(s.ctx, { kind: 'bot', first_name: 'Alert', last_name: 'Bot', name: 'Alert Bot', email: 'bot@x.example' }));
  const employee = s.ctx.db.insert(KIND.users, newUser(s.ctx, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@x.example' }));
  const events: PlatformEvent[] = [];
  s.ctx.events.on((e) => events.push(e));
  return { s, wall, chat, bot, employee, events };
}

async function createIncoming(s: Sandbox, body: Record<string, unknown>, headers = AUTH) {
  return s.app.inject({ method: 'POST', url: `${API}/incoming-webhooks`, headers, payload: { name: 'alerts', ...body } });
}

async function tokenOf(s: Sandbox, body: Record<string, unknown>): Promise<{ id: number; token: string; url: string }> {
  const res = await createIncoming(s, body);
  expect(res.statusCode).toBe(201);
  return (res.json() as { data: { id: number; token: string; url: string } }).data;
}

function trigger(s: Sandbox, token: string, payload: Record<string, unknown>) {
  return s.app.inject({ method: 'POST', url: `${API}/incoming/${token}`, payload });
}

async function messages(s: Sandbox, query = ''): Promise<Record<string, unknown>[]> {
  return ((await s.app.inject({ method: 'GET', url: `/_sandbox/messages${query}` })).json() as { data: Record<string, unknown>[] }).data;
}

describe('incoming webhook management', () => {
  it('returns url and token only in the create response (spec: Incoming webhooks)', async () => {
    const { s, chat } = setup();
    const res = await createIncoming(s, { action: 'chat_message', chat_id: chat.id });
    const { data } = res.json() as { data: { id: number; url: string; token: string } };
    expect(data.url).toBe(`http://localhost:80/api/open/v1/incoming/${data.token}`);
    const one = await s.app.inject({ method: 'GET', url: `${API}/incoming-webhooks/${data.id}`, headers: AUTH });
    const list = await s.app.inject({ method: 'GET', url: `${API}/incoming-webhooks`, headers: AUTH });
    for (const r of [one, list]) {
      expect(r.statusCode).toBe(200);
      expect(r.body).not.toContain(data.token);
    }
    expect((one.json() as { data: unknown }).data).toMatchObject({ action: 'chat_message', chat_id: chat.id, revoked_at: null });
  });

  it('answers 422 naming the target the action needs (spec: Incoming webhooks; DESIGN.md)', async () => {
    const { s, bot, employee } = setup();
    const wall = await createIncoming(s, { action: 'wall_post' });
    expect(wall.statusCode).toBe(422);
    expect(wall.json()).toMatchObject({ message: expect.stringContaining('wall_id') });
    const dm = await createIncoming(s, { action: 'direct_message', user_id: employee.id });
    expect(dm.json()).toMatchObject({ message: expect.stringContaining('bot_user_id') });
    const notBot = await createIncoming(s, { action: 'direct_message', user_id: employee.id, bot_user_id: employee.id });
    expect(notBot.json()).toMatchObject({ message: expect.stringContaining('bot_user_id') });
    const missingWall = await createIncoming(s, { action: 'wall_post', wall_id: 999 });
    expect(missingWall.json()).toMatchObject({ message: expect.stringContaining('wall_id') });
    expect((await createIncoming(s, { action: 'direct_message', user_id: employee.id, bot_user_id: bot.id })).statusCode).toBe(201);
  });

  it('shows webhooks only to the token that created them (spec: Incoming webhooks)', async () => {
    const { s, chat } = setup();
    const { id } = await tokenOf(s, { action: 'chat_message', chat_id: chat.id });
    const other = await s.app.inject({ method: 'POST', url: '/_sandbox/tokens', payload: { name: 'o', scopes: ['read:incoming_webhooks', 'write:incoming_webhooks'] } });
    const headers = { authorization: `Bearer ${(other.json() as { token: string }).token}` };
    expect((await s.app.inject({ method: 'GET', url: `${API}/incoming-webhooks/${id}`, headers })).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'POST', url: `${API}/incoming-webhooks/${id}/revoke`, headers })).statusCode).toBe(404);
    expect(((await s.app.inject({ method: 'GET', url: `${API}/incoming-webhooks`, headers })).json() as { data: unknown[] }).data).toHaveLength(0);
  });

  it('stops the URL working once revoked: 404 (spec: Incoming webhooks)', async () => {
    const { s, chat } = setup();
    const { id, token } = await tokenOf(s, { action: 'chat_message', chat_id: chat.id });
    const revoked = await s.app.inject({ method: 'POST', url: `${API}/incoming-webhooks/${id}/revoke`, headers: AUTH });
    expect((revoked.json() as { data: { revoked_at: string | null } }).data.revoked_at).not.toBeNull();
    const res = await trigger(s, token, { text: 'hi' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('');
    expect((await trigger(s, 'no-such-token', { text: 'hi' })).statusCode).toBe(404);
    const renamed = await s.app.inject({ method: 'PUT', url: `${API}/incoming-webhooks/${id}`, headers: AUTH, payload: { name: 'again' } });
    expect(renamed.statusCode).toBe(422);
  });

  it('changes the name and target on update (spec: Incoming webhooks)', async () => {
    const { s, chat } = setup();
    const second = s.ctx.db.insert(MESSAGING_KIND.chats, { name: 'General', created_at: s.ctx.now() });
    const { id, token } = await tokenOf(s, { action: 'chat_message', chat_id: chat.id });
    const res = await s.app.inject({ method: 'PUT', url: `${API}/incoming-webhooks/${id}`, headers: AUTH, payload: { name: 'moved', chat_id: second.id } });
    expect((res.json() as { data: unknown }).data).toMatchObject({ name: 'moved', chat_id: second.id });
    await trigger(s, token, { text: 'to general' });
    expect((await messages(s, `?chat_id=${second.id}`)).map((m) => m.text)).toEqual(['to general']);
  });
});

describe('incoming webhook trigger', () => {
  it('posts a chat message into the bound chat room with downloaded media (spec: Incoming webhooks)', async () => {
    const { s, chat } = setup();
    const base = await mediaServer();
    const { token } = await tokenOf(s, { action: 'chat_message', chat_id: chat.id });
    const res = await trigger(s, token, { text: 'CPU high', media: [{ url: `${base}/a.png`, type: 'image' }, { url: `${base}/b.png`, type: 'image' }] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ ok: true, data: { action: 'chat_message', id: expect.any(Number) } });
    const [m] = await messages(s, '?kind=chat');
    expect(m).toMatchObject({ kind: 'chat', chat_id: chat.id, text: 'CPU high', source: 'incoming_webhook' });
    expect(m!.media).toEqual([expect.objectContaining({ url: `${base}/a.png`, mime_type: 'image/png' }), expect.objectContaining({ url: `${base}/b.png` })]);
  });

  it('answers 422 for mixed media types in a chat message (spec: Incoming webhooks)', async () => {
    const { s, chat } = setup();
    const base = await mediaServer();
    const { token } = await tokenOf(s, { action: 'chat_message', chat_id: chat.id });
    const res = await trigger(s, token, { text: 'mixed', media: [{ url: `${base}/a.png`, type: 'image' }, { url: `${base}/c.mp4`, type: 'video' }] });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation_error', message: expect.stringContaining('media') });
    expect(await messages(s)).toHaveLength(0);
  });

  it('answers 422 naming the URL whose download failed, and stores nothing (spec: Incoming webhooks)', async () => {
    const { s, chat } = setup();
    const base = await mediaServer();
    const { token } = await tokenOf(s, { action: 'chat_message', chat_id: chat.id });
    const res = await trigger(s, token, { text: 'x', media: [{ url: `${base}/a.png`, type: 'image' }, { url: `${base}/missing.png`, type: 'image' }] });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: expect.stringContaining(`${base}/missing.png`) });
    expect((res.json() as { message: string }).message).toContain('media.1.url');
    expect(await messages(s)).toHaveLength(0);
  });

  it('answers 422 for more than 10 media items (spec: Limits, Media per incoming webhook payload)', async () => {
    const { s, chat } = setup();
    const { token } = await tokenOf(s, { action: 'chat_message', chat_id: chat.id });
    const items = Array.from({ length: 11 }, (_, i) => ({ url: `http://127.0.0.1:9/${i}.png`, type: 'image' }));
    const res = await trigger(s, token, { text: 'x', media: items });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: expect.stringContaining('media') });
  });

  it('creates a wall post with mixed media as the bot, fires post.created and answers without an id (spec: Incoming webhooks)', async () => {
    const { s, wall, bot, events } = setup();
    const base = await mediaServer();
    const { token } = await tokenOf(s, { action: 'wall_post', wall_id: wall.id, bot_user_id: bot.id });
    const res = await trigger(s, token, { text: 'Deploy done', media: [{ url: `${base}/a.png`, type: 'image' }, { url: `${base}/doc.pdf`, type: 'document' }] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ ok: true, data: { action: 'wall_post', id: null } });
    const [post] = s.ctx.db.all<PostRecord>(POSTS_KIND.posts);
    expect(post).toMatchObject({ wall_id: wall.id, body: 'Deploy done', author_id: bot.id, status: 'published' });
    expect(post!.media_ids.map((id) => s.ctx.db.get<MediaRecord>(POSTS_KIND.media, id)?.mime_type)).toEqual(['image/png', 'application/pdf']);
    expect(events).toEqual([expect.objectContaining({ event: 'post.created', entityIds: { wall: wall.id } })]);
  });

  it('creates a wall post as the creating token user when no bot is bound (spec: Incoming webhooks; Post.author)', async () => {
    const { s, wall } = setup();
    const { token } = await tokenOf(s, { action: 'wall_post', wall_id: wall.id });
    await trigger(s, token, { text: 'plain' });
    expect(s.ctx.db.all<PostRecord>(POSTS_KIND.posts)[0]?.author_id).toBe(1);
  });

  it('sends a direct message from the bound bot to the bound user (spec: Incoming webhooks, direct_message)', async () => {
    const { s, bot, employee } = setup();
    const { token } = await tokenOf(s, { action: 'direct_message', user_id: employee.id, bot_user_id: bot.id });
    const res = await trigger(s, token, { text: 'Your build failed' });
    expect(res.statusCode).toBe(201);
    const [m] = await messages(s, `?kind=direct&user_id=${employee.id}`);
    expect(m).toMatchObject({ text: 'Your build failed', user_id: employee.id, sender: expect.objectContaining({ id: bot.id, type: 'bot' }) });
  });

  it('creates a calendar entry with the Default event type rule of POST /calendar-entries (spec: Incoming webhooks; Calendar entries)', async () => {
    const { s, bot } = setup();
    const { token } = await tokenOf(s, { action: 'calendar_entry', bot_user_id: bot.id });
    const none = await trigger(s, token, { title: 'Freeze', starts_at: '2026-12-20' });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ message: expect.stringContaining('calendar_event_type_id') });
    s.ctx.db.insert(CONTENT_KIND.calendarEventTypes, { name: 'Default', color: null, is_published: true, created_at: s.ctx.now(), updated_at: s.ctx.now() });
    const ok = await trigger(s, token, { title: 'Freeze', starts_at: '2026-12-20' });
    expect(ok.statusCode).toBe(201);
    const { id } = (ok.json() as { data: { id: number } }).data;
    expect(s.ctx.db.get(CONTENT_KIND.calendarEntries, id)).toMatchObject({ title: 'Freeze', starts_at: '2026-12-20', author_id: bot.id });
  });

  it('limits each webhook to 60 requests a minute, separately from others (spec: Limits; Incoming webhooks)', async () => {
    const { s, chat } = setup();
    const first = await tokenOf(s, { action: 'chat_message', chat_id: chat.id });
    const second = await tokenOf(s, { action: 'chat_message', chat_id: chat.id });
    for (let i = 0; i < 60; i++) expect((await trigger(s, first.token, { text: `m${i}` })).statusCode).toBe(201);
    const limited = await trigger(s, first.token, { text: 'one too many' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await trigger(s, second.token, { text: 'other hook' })).statusCode).toBe(201);
    s.clock.advance(60_000);
    expect((await trigger(s, first.token, { text: 'next minute' })).statusCode).toBe(201);
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
