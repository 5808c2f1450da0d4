import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGING_KIND } from '../../src/sandbox/routes/messaging/messaging-records';
import { newUser } from '../../src/sandbox/seed/base';
import { KIND } from '../../src/sandbox/state/records';
import { API, AUTH, buildTestSandbox } from './deliveries-helpers';

type Sandbox = ReturnType<typeof buildTestSandbox>;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.app.close();
  sandbox = undefined;
});

function setup() {
  const s = buildTestSandbox();
  sandbox = s;
  const now = s.ctx.now();
  const sales = s.ctx.db.insert(KIND.groups, { name: 'Sales', type: 'department', is_open: null, created_at: now });
  const eng = s.ctx.db.insert(KIND.groups, { name: 'Engineering', type: 'department', is_open: null, created_at: now });
  const member = (first: string, groups: number[], extra: Record<string, unknown> = {}) =>
    s.ctx.db.insert(KIND.users, newUser(s.ctx, { first_name: first, last_name: 'X', email: `${first}@x.example`, memberships: groups.map((g) => ({ group_id: g, is_manager: false })), ...extra }));
  const ada = member('Ada', [sales.id]);
  const ben = member('Ben', [sales.id, eng.id]);
  const cleo = member('Cleo', [eng.id]);
  const pending = member('Pia', [sales.id], { status: 'pending', registered_at: null });
  const kiosk = member('Kiosk', [sales.id], { kind: 'kiosk' });
  const bot = s.ctx.db.insert(KIND.users, newUser(s.ctx, { kind: 'bot', first_name: 'Help', last_name: 'Bot', name: 'Help Bot', email: 'bot@x.example' }));
  return { s, sales, eng, ada, ben, cleo, pending, kiosk, bot };
}

async function messages(s: Sandbox, query = ''): Promise<Record<string, unknown>[]> {
  return ((await s.app.inject({ method: 'GET', url: `/_sandbox/messages${query}` })).json() as { data: Record<string, unknown>[] }).data;
}

describe('bot direct messages', () => {
  it('sends a direct message from a bot user to a registered user (spec: Other endpoints that exist; DESIGN.md)', async () => {
    const { s, ada, bot } = setup();
    const res = await s.app.inject({ method: 'POST', url: `${API}/users/${ada.id}/messages`, headers: AUTH, payload: { bot_user_id: bot.id, text: 'Welcome!' } });
    expect(res.statusCode).toBe(201);
    expect((res.json() as { data: unknown }).data).toMatchObject({ user_id: ada.id, bot_user_id: bot.id, text: 'Welcome!', created_at: '2026-11-23T09:00:00+01:00' });
    expect(await messages(s, `?kind=direct&user_id=${ada.id}`)).toEqual([expect.objectContaining({ text: 'Welcome!', source: 'api', sender: expect.objectContaining({ id: bot.id }) })]);
  });

  it('downloads media of a direct message and answers 422 naming a URL that fails (spec: Incoming webhooks, media rules)', async () => {
    const { s, ada, bot } = setup();
    const server = createServer((req, res) => (req.url === '/ok.png' ? res.writeHead(200, { 'content-type': 'image/png' }).end('png') : res.writeHead(500).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ok = await s.app.inject({ method: 'POST', url: `${API}/users/${ada.id}/messages`, headers: AUTH, payload: { bot_user_id: bot.id, text: 'see', media: [{ url: `${base}/ok.png`, type: 'image' }] } });
      expect((ok.json() as { data: unknown }).data).toMatchObject({ media: [{ url: `${base}/ok.png`, type: 'image' }] });
      const bad = await s.app.inject({ method: 'POST', url: `${API}/users/${ada.id}/messages`, headers: AUTH, payload: { bot_user_id: bot.id, text: 'see', media: [{ url: `${base}/broken.png`, type: 'image' }] } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json()).toMatchObject({ message: expect.stringContaining(`${base}/broken.png`) });
      expect(await messages(s)).toHaveLength(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('answers 422 naming bot_user_id when the sender is not a bot (spec: Incoming webhooks — a bot user is always the sender)', async () => {
    const { s, ada, ben } = setup();
    const res = await s.app.inject({ method: 'POST', url: `${API}/users/${ada.id}/messages`, headers: AUTH, payload: { bot_user_id: ben.id, text: 'hi' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: expect.stringContaining('bot_user_id') });
  });

  it('answers 404 for an unknown recipient and 422 for a pending or kiosk one (spec: Users — registered users only)', async () => {
    const { s, pending, kiosk, bot } = setup();
    expect((await s.app.inject({ method: 'POST', url: `${API}/users/999/messages`, headers: AUTH, payload: { bot_user_id: bot.id, text: 'hi' } })).statusCode).toBe(404);
    for (const user of [pending, kiosk]) {
      const res = await s.app.inject({ method: 'POST', url: `${API}/users/${user.id}/messages`, headers: AUTH, payload: { bot_user_id: bot.id, text: 'hi' } });
      expect(res.statusCode).toBe(422);
    }
    expect(await messages(s)).toHaveLength(0);
  });

  it('needs write:chat_messages (spec: Other endpoints that exist)', async () => {
    const { s, ada, bot } = setup();
    const token = await s.app.inject({ method: 'POST', url: '/_sandbox/tokens', payload: { name: 'n', scopes: ['write:notifications'] } });
    const headers = { authorization: `Bearer ${(token.json() as { token: string }).token}` };
    const res = await s.app.inject({ method: 'POST', url: `${API}/users/${ada.id}/messages`, headers, payload: { bot_user_id: bot.id, text: 'hi' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ message: expect.stringContaining('write:chat_messages') });
  });
});

describe('notifications', () => {
  it('counts distinct registered employees matched by groups and users (spec: Other endpoints that exist)', async () => {
    const { s, sales, eng, ada, cleo } = setup();
    const res = await s.app.inject({ method: 'POST', url: `${API}/notifications`, headers: AUTH, payload: { title: 'Heads up', body: 'Office closed Friday', groups: [sales.id, eng.id], users: [ada.id, cleo.id] } });
    expect(res.statusCode).toBe(201);
    // Ada, Ben, Cleo: Ben is in both groups, Ada and Cleo also named; pending and kiosk users never count
    expect(res.json()).toEqual({ data: { matched: 3 } });
    const [n] = await messages(s, '?kind=notification');
    expect(n).toMatchObject({ title: 'Heads up', text: 'Office closed Friday' });
    expect((n!.recipient_ids as number[]).length).toBe(3);
  });

  it('answers 422 naming groups.<index> for an unknown group and when no target is given (DESIGN.md)', async () => {
    const { s, sales } = setup();
    const unknown = await s.app.inject({ method: 'POST', url: `${API}/notifications`, headers: AUTH, payload: { title: 't', body: 'b', groups: [sales.id, 999] } });
    expect(unknown.json()).toMatchObject({ error: 'validation_error', message: expect.stringContaining('groups.1') });
    const none = await s.app.inject({ method: 'POST', url: `${API}/notifications`, headers: AUTH, payload: { title: 't', body: 'b' } });
    expect(none.statusCode).toBe(422);
  });
});

describe('chat messages, chats and feedback', () => {
  it('pins and unpins a stored chat message, 404 for other ids (spec: Other endpoints that exist)', async () => {
    const { s } = setup();
    const chat = s.ctx.db.insert(MESSAGING_KIND.chats, { name: 'General', created_at: s.ctx.now() });
    const hook = await s.app.inject({ method: 'POST', url: `${API}/incoming-webhooks`, headers: AUTH, payload: { name: 'c', action: 'chat_message', chat_id: chat.id } });
    const sent = await s.app.inject({ method: 'POST', url: `${API}/incoming/${(hook.json() as { data: { token: string } }).data.token}`, payload: { text: 'pin me' } });
    const id = (sent.json() as { data: { id: number } }).data.id;
    const pinned = await s.app.inject({ method: 'POST', url: `${API}/chat-messages/${id}/pin`, headers: AUTH });
    expect(pinned.json()).toEqual({ data: { id, is_pinned: true } });
    expect((await messages(s))[0]).toMatchObject({ is_pinned: true });
    const unpinned = await s.app.inject({ method: 'DELETE', url: `${API}/chat-messages/${id}/pin`, headers: AUTH });
    expect(unpinned.statusCode).toBe(204);
    expect((await messages(s))[0]).toMatchObject({ is_pinned: false });
    expect((await s.app.inject({ method: 'POST', url: `${API}/chat-messages/999/pin`, headers: AUTH })).statusCode).toBe(404);
  });

  it('lists the seeded chat rooms of the demo seed (DESIGN.md, GET /_sandbox/chats)', async () => {
    const s = buildTestSandbox({ seed: 'demo' });
    sandbox = s;
    const res = await s.app.inject({ method: 'GET', url: '/_sandbox/chats' });
    expect((res.json() as { data: { id: number; name: string }[] }).data).toEqual([{ id: 1, name: 'General' }, { id: 2, name: 'Ops alerts' }]);
  });

  it('accepts feedback from any valid token, without a scope (spec: Other endpoints that exist)', async () => {
    const { s } = setup();
    const token = await s.app.inject({ method: 'POST', url: '/_sandbox/tokens', payload: { name: 'none', scopes: [] } });
    const headers = { authorization: `Bearer ${(token.json() as { token: string }).token}` };
    const res = await s.app.inject({ method: 'POST', url: `${API}/feedback`, headers, payload: { message: 'Great API' } });
    expect(res.statusCode).toBe(201);
    expect((res.json() as { data: unknown }).data).toMatchObject({ message: 'Great API' });
    expect((await s.app.inject({ method: 'POST', url: `${API}/feedback`, payload: { message: 'x' } })).statusCode).toBe(401);
  });

  it('lists messages newest first, filtered by kind and chat (DESIGN.md, GET /_sandbox/messages)', async () => {
    const { s, ada, bot, sales } = setup();
    await s.app.inject({ method: 'POST', url: `${API}/users/${ada.id}/messages`, headers: AUTH, payload: { bot_user_id: bot.id, text: 'first' } });
    await s.app.inject({ method: 'POST', url: `${API}/notifications`, headers: AUTH, payload: { title: 't', body: 'second', groups: [sales.id] } });
    expect((await messages(s)).map((m) => m.text)).toEqual(['second', 'first']);
    expect((await messages(s, '?kind=direct')).map((m) => m.text)).toEqual(['first']);
    expect((await messages(s, `?user_id=${ada.id}`)).map((m) => m.text)).toEqual(['second', 'first']);
  });
});
