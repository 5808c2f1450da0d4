import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiForbiddenError, ApiNotFoundError, ApiUnauthorizedError, ApiValidationError } from '../../src/api/errors';
import { formsModule } from '../../src/sandbox/routes/forms';
import { messagingModule } from '../../src/sandbox/routes/messaging';
import { MESSAGING_KIND } from '../../src/sandbox/routes/messaging/messaging-records';
import { webhooksModule } from '../../src/sandbox/routes/webhooks';
import { newUser } from '../../src/sandbox/seed/base';
import { KIND } from '../../src/sandbox/state/records';
import { START } from './deliveries-helpers';
import { failure, useHttpSandbox, type HttpSandbox } from './http-harness';

const MODULES = [webhooksModule, messagingModule, formsModule];

/**
 * The people these tests message. This sandbox has no directory module (so no /users or /groups
 * routes), so they are written in process, as the directory seed would.
 */
function setup(h: HttpSandbox) {
  const ctx = h.sandbox.ctx;
  const now = ctx.now();
  const sales = ctx.db.insert(KIND.groups, { name: 'Sales', type: 'department', is_open: null, created_at: now });
  const eng = ctx.db.insert(KIND.groups, { name: 'Engineering', type: 'department', is_open: null, created_at: now });
  const member = (first: string, groups: number[], extra: Record<string, unknown> = {}) =>
    ctx.db.insert(
      KIND.users,
      newUser(ctx, {
        first_name: first,
        last_name: 'X',
        email: `${first}@x.example`,
        memberships: groups.map((g) => ({ group_id: g, is_manager: false })),
        ...extra,
      }),
    );
  const ada = member('Ada', [sales.id]);
  const ben = member('Ben', [sales.id, eng.id]);
  const cleo = member('Cleo', [eng.id]);
  const pending = member('Pia', [sales.id], { status: 'pending', registered_at: null });
  const kiosk = member('Kiosk', [sales.id], { kind: 'kiosk' });
  const bot = ctx.db.insert(KIND.users, newUser(ctx, { kind: 'bot', first_name: 'Help', last_name: 'Bot', name: 'Help Bot', email: 'bot@x.example' }));
  return { sales, eng, ada, ben, cleo, pending, kiosk, bot };
}

describe('bot direct messages', () => {
  const h = useHttpSandbox({ seed: 'empty', start: START, modules: MODULES });

  it('sends a direct message from a bot user to a registered user (spec: Other endpoints that exist; DESIGN.md)', async () => {
    const { ada, bot } = setup(h);
    const sent = await h.api.directMessages.send(ada.id, { bot_user_id: bot.id, text: 'Welcome!' });
    expect(sent).toMatchObject({ user_id: ada.id, bot_user_id: bot.id, text: 'Welcome!', created_at: '2026-11-23T09:00:00+01:00' });
    expect(await h.platform.messages({ kind: 'direct', user_id: ada.id })).toEqual([
      expect.objectContaining({ text: 'Welcome!', source: 'api', sender: expect.objectContaining({ id: bot.id }) }),
    ]);
    // the status itself, which the client does not surface
    expect((await h.raw('POST', `/users/${ada.id}/messages`, { body: { bot_user_id: bot.id, text: 'again' } })).status).toBe(201);
  });

  it('downloads media of a direct message and answers 422 naming a URL that fails (spec: Incoming webhooks, media rules)', async () => {
    const { ada, bot } = setup(h);
    const server = createServer((req, res) =>
      req.url === '/ok.png' ? res.writeHead(200, { 'content-type': 'image/png' }).end('png') : res.writeHead(500).end(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ok = await h.api.directMessages.send(ada.id, { bot_user_id: bot.id, text: 'see', media: [{ url: `${base}/ok.png`, type: 'image' }] });
      expect(ok).toMatchObject({ media: [{ url: `${base}/ok.png`, type: 'image' }] });
      const error = await failure(
        h.api.directMessages.send(ada.id, { bot_user_id: bot.id, text: 'see', media: [{ url: `${base}/broken.png`, type: 'image' }] }),
      );
      expect(error).toBeInstanceOf(ApiValidationError);
      expect(error).toMatchObject({ platformMessage: expect.stringContaining(`${base}/broken.png`) });
      expect(await h.platform.messages()).toHaveLength(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('answers 422 naming bot_user_id when the sender is not a bot (spec: Incoming webhooks — a bot user is always the sender)', async () => {
    const { ada, ben } = setup(h);
    const error = await failure(h.api.directMessages.send(ada.id, { bot_user_id: ben.id, text: 'hi' }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ platformMessage: expect.stringContaining('bot_user_id') });
  });

  it('answers 404 for an unknown recipient and 422 for a pending or kiosk one (spec: Users — registered users only)', async () => {
    const { pending, kiosk, bot } = setup(h);
    await expect(h.api.directMessages.send(999, { bot_user_id: bot.id, text: 'hi' })).rejects.toBeInstanceOf(ApiNotFoundError);
    for (const user of [pending, kiosk]) {
      await expect(h.api.directMessages.send(user.id, { bot_user_id: bot.id, text: 'hi' })).rejects.toBeInstanceOf(ApiValidationError);
    }
    expect(await h.platform.messages()).toHaveLength(0);
  });

  it('needs write:chat_messages (spec: Other endpoints that exist)', async () => {
    const { ada, bot } = setup(h);
    const api = await h.clientWith(['write:notifications']);
    const error = await failure(api.directMessages.send(ada.id, { bot_user_id: bot.id, text: 'hi' }));
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ missingScope: 'write:chat_messages' });
  });
});

describe('notifications', () => {
  const h = useHttpSandbox({ seed: 'empty', start: START, modules: MODULES });

  it('counts distinct registered employees matched by groups and users (spec: Other endpoints that exist)', async () => {
    const { sales, eng, ada, cleo } = setup(h);
    const result = await h.api.notifications.send({ title: 'Heads up', body: 'Office closed Friday', groups: [sales.id, eng.id], users: [ada.id, cleo.id] });
    // Ada, Ben, Cleo: Ben is in both groups, Ada and Cleo also named; pending and kiosk users never count
    expect(result).toEqual({ matched: 3 });
    const [n] = await h.platform.messages({ kind: 'notification' });
    expect(n).toMatchObject({ title: 'Heads up', text: 'Office closed Friday' });
    expect((n!.recipient_ids as number[]).length).toBe(3);
  });

  it('answers 422 naming groups.<index> for an unknown group and when no target is given (DESIGN.md)', async () => {
    const { sales } = setup(h);
    const error = await failure(h.api.notifications.send({ title: 't', body: 'b', groups: [sales.id, 999] }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'groups.1' });
    // the client refuses a notification without targets before sending, so raw HTTP
    const none = await h.raw('POST', '/notifications', { body: { title: 't', body: 'b' } });
    expect(none.status).toBe(422);
  });
});

describe('chat messages, chats and feedback', () => {
  const h = useHttpSandbox({ seed: 'empty', start: START, modules: MODULES });

  it('pins and unpins a stored chat message, 404 for other ids (spec: Other endpoints that exist)', async () => {
    setup(h);
    // chat rooms come from the seed, not the API
    const chat = h.sandbox.ctx.db.insert(MESSAGING_KIND.chats, { name: 'General', created_at: h.sandbox.ctx.now() });
    const hook = await h.api.incomingWebhooks.create({ name: 'c', action: 'chat_message', chat_id: chat.id });
    const sent = await h.api.incomingWebhooks.send(hook.token, { text: 'pin me' });
    const id = sent.id as number;
    expect(await h.api.chatMessages.pin(id)).toEqual({ id, is_pinned: true });
    expect((await h.platform.messages())[0]).toMatchObject({ is_pinned: true });
    await expect(h.api.chatMessages.unpin(id)).resolves.toBeUndefined();
    expect((await h.platform.messages())[0]).toMatchObject({ is_pinned: false });
    await expect(h.api.chatMessages.pin(999)).rejects.toBeInstanceOf(ApiNotFoundError);
    // the unpin's 204, seen over raw HTTP
    expect((await h.raw('DELETE', `/chat-messages/${id}/pin`)).status).toBe(204);
  });

  it('lists the seeded chat rooms of the demo seed (DESIGN.md, GET /_sandbox/chats)', async () => {
    await h.reset('demo');
    const res = (await h.control.send('GET', '/chats')) as { data: { id: number; name: string }[] };
    expect(res.data).toEqual([
      { id: 1, name: 'General' },
      { id: 2, name: 'Ops alerts' },
    ]);
  });

  it('accepts feedback from any valid token, without a scope (spec: Other endpoints that exist)', async () => {
    setup(h);
    const api = await h.clientWith([]);
    expect(await api.feedback.send({ message: 'Great API' })).toMatchObject({ message: 'Great API' });
    await expect(h.client('svc_unknown').feedback.send({ message: 'x' })).rejects.toBeInstanceOf(ApiUnauthorizedError);
    // without any token: the client always sends one, so raw HTTP
    expect((await h.raw('POST', '/feedback', { body: { message: 'x' }, token: null })).status).toBe(401);
  });

  it('lists messages newest first, filtered by kind and chat (DESIGN.md, GET /_sandbox/messages)', async () => {
    const { ada, bot, sales } = setup(h);
    await h.api.directMessages.send(ada.id, { bot_user_id: bot.id, text: 'first' });
    await h.api.notifications.send({ title: 't', body: 'second', groups: [sales.id] });
    expect((await h.platform.messages()).map((m) => m.text)).toEqual(['second', 'first']);
    expect((await h.platform.messages({ kind: 'direct' })).map((m) => m.text)).toEqual(['first']);
    expect((await h.platform.messages({ user_id: ada.id })).map((m) => m.text)).toEqual(['second', 'first']);
  });
});
