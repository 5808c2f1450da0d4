import { afterEach, describe, expect, it } from 'vitest';
import { ApiNetworkError } from '../../src/api/errors';
import type { AnyEndpoint } from '../../src/api/schemas/endpoint';
import { AdjustableClock } from '../../src/clock';
import { readNote, attemptKey } from '../../src/outbox/attempt-note';
import { Outbox } from '../../src/outbox/outbox';
import { OutboxSender } from '../../src/outbox/sender';
import type { SendClient } from '../../src/outbox/send-client';
import { openTempStore, runClockUntil, type TestSenderOptions, type TestStore } from './helpers';

let temp: TestStore | undefined;
let sender: OutboxSender | undefined;
afterEach(async () => {
  await sender?.stop(0);
  await temp?.close();
  sender = undefined;
  temp = undefined;
});

type Handler = (endpoint: AnyEndpoint, input: { params?: Record<string, unknown>; body?: unknown; signal?: AbortSignal }) => Promise<unknown>;

/** A client double: every call goes to `handler`; lists are empty. */
function fakeClient(handler: Handler): SendClient {
  return {
    call: (endpoint, input) => handler(endpoint, (input ?? {}) as never) as never,
    paginate: () => (async function* () {})() as never,
  };
}

async function setup(handler: Handler, options: TestSenderOptions = {}) {
  const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
  temp = await openTempStore(clock);
  const store = temp.store;
  await store.secrets.put('incoming:ops', 'http://127.0.0.1:1/api/open/v1/incoming/tok-123');
  sender = new OutboxSender({ store, clock, pollMs: 50, random: () => 0.5, ...options, steps: { clientFor: () => fakeClient(handler), ...options.steps } });
  return { clock, store, sender, outbox: new Outbox({ store, clock, sender }) };
}

describe('OutboxSender', () => {
  it('retries a transient failure with backoff until the deadline, then dead-letters it', async () => {
    const calls: number[] = [];
    const {
      clock,
      store,
      sender: s,
      outbox,
    } = await setup(async () => {
      calls.push(clock.now());
      throw new ApiNetworkError({ method: 'POST', path: '/api/open/v1/users/5/messages' }, false);
    });
    const { id } = await outbox.enqueue({ kind: 'dm', tenant: 't', userId: 5, botUserId: 9, text: 'hi' }, { deadlineMs: 60_000 });
    s.start();
    expect(await runClockUntil(clock, async () => (await store.outbox.list({ state: 'dead' })).length === 1)).toBe(true);
    const [dead] = await store.outbox.list({ state: 'dead' });
    expect(dead?.id).toBe(id);
    expect(dead?.deadReason).toMatch(/^deadline passed; last error: api_network: /);
    expect(calls.length).toBeGreaterThan(3);
    // backoff grows: the gaps between attempts do not shrink
    const gaps = calls.slice(1).map((t, i) => t - (calls[i] ?? 0));
    expect(gaps.every((g, i) => i === 0 || g >= (gaps[i - 1] ?? 0))).toBe(true);
    expect((calls.at(-1) ?? 0) - (calls[0] ?? 0)).toBeLessThanOrEqual(60_000);
  });

  it('does not send a message late once its deadline has passed (the runtime was down)', async () => {
    let calls = 0;
    const {
      clock,
      store,
      sender: s,
      outbox,
    } = await setup(async () => {
      calls += 1;
      return { id: 1 };
    });
    await outbox.enqueue({ kind: 'post', tenant: 't', wallId: 3, body: 'Happy birthday!' }, { deadlineMs: 3_600_000 });
    clock.advance(3_600_001);
    s.start();
    expect(await runClockUntil(clock, async () => (await store.outbox.list({ state: 'dead' })).length === 1)).toBe(true);
    expect((await store.outbox.list({ state: 'dead' }))[0]?.deadReason).toBe('deadline passed before it could be sent');
    expect(calls).toBe(0);
  });

  it("tells the loop guard the token's user from the author of what it writes as that user: a comment, a post without bot_user_id", async () => {
    const created: unknown[] = [];
    const {
      clock,
      store,
      sender: s,
      outbox,
    } = await setup(
      async (endpoint, input) => {
        if (endpoint.id === 'comments.create') return { id: 5, author: { id: 3, name: 'System', type: 'system' } };
        const botPost = (input.body as { bot_user_id?: number }).bot_user_id !== undefined;
        return { id: botPost ? 6 : 7, author: botPost ? { id: 40, name: 'Kudos', type: 'bot' } : { id: 3, name: 'System', type: 'system' } };
      },
      { steps: { onCreated: (c) => void created.push(c) } },
    );
    await outbox.enqueue({ kind: 'comment', tenant: 't', postId: 1, body: 'thanks' });
    await outbox.enqueue({ kind: 'post', tenant: 't', wallId: 3, body: 'as the bot', botUserId: 40 });
    await outbox.enqueue({ kind: 'post', tenant: 't', wallId: 3, body: 'as the token' });
    s.start();
    expect(await runClockUntil(clock, async () => (await store.outbox.list()).length === 0)).toBe(true);
    const system = { id: 3, type: 'system' };
    expect(created).toEqual(
      expect.arrayContaining([
        { tenant: 't', kind: 'comment', id: 5, tokenUser: system, entryId: expect.any(String) },
        { tenant: 't', kind: 'post', id: 6, entryId: expect.any(String) },
        { tenant: 't', kind: 'post', id: 7, tokenUser: system, entryId: expect.any(String) },
      ]),
    );
    expect(created).toHaveLength(3);
  });

  it('tells the loop guard what it created and what it posted through an incoming webhook', async () => {
    const created: unknown[] = [];
    const texts: unknown[] = [];
    const tokens: unknown[] = [];
    const {
      clock,
      store,
      sender: s,
      outbox,
    } = await setup(
      async (endpoint, input) => {
        if (endpoint.id === 'incomingWebhooks.send') tokens.push(input.params?.token);
        return endpoint.id === 'posts.create' ? { id: 77 } : { action: 'wall_post', id: null };
      },
      { steps: { onCreated: (c) => void created.push(c), onSentText: (t) => void texts.push(t) } },
    );
    await outbox.enqueue({ kind: 'post', tenant: 't', wallId: 3, body: 'hello' });
    await outbox.enqueue({
      kind: 'incoming',
      tenant: 't',
      webhook: { id: 'ops', urlSecretRef: 'incoming:ops' },
      action: 'wall_post',
      payload: { text: 'deployed' },
    });
    s.start();
    expect(await runClockUntil(clock, async () => (await store.outbox.list()).length === 0)).toBe(true);
    expect(created).toEqual([{ tenant: 't', kind: 'post', id: 77, entryId: expect.any(String) }]);
    expect(texts).toEqual([{ tenant: 't', text: 'deployed' }]);
    expect(tokens).toEqual(['tok-123']);
  });

  it('does not send a caller-keyed entry twice when a retried handler enqueues it again after delivery', async () => {
    let calls = 0;
    const {
      clock,
      store,
      sender: s,
      outbox,
    } = await setup(async () => {
      calls += 1;
      return { id: 5 };
    });
    const entry = { kind: 'post', tenant: 't', wallId: 3, body: 'Welcome, Ada!' };
    await outbox.enqueue(entry, { id: 'delivery-7:0' });
    s.start();
    expect(await runClockUntil(clock, async () => (await store.outbox.list()).length === 0)).toBe(true);
    await outbox.enqueue(entry, { id: 'delivery-7:0' });
    expect(await store.outbox.list()).toEqual([]);
    expect(calls).toBe(1);
  });

  it('dead-letters an incoming entry whose secret is missing, naming the secret but not a URL', async () => {
    const { clock, store, sender: s, outbox } = await setup(async () => ({}));
    await outbox.enqueue({
      kind: 'incoming',
      tenant: 't',
      webhook: { id: 'x', urlSecretRef: 'incoming:gone' },
      action: 'chat_message',
      payload: { text: 'x' },
    });
    s.start();
    expect(await runClockUntil(clock, async () => (await store.outbox.list({ state: 'dead' })).length === 1)).toBe(true);
    expect((await store.outbox.list({ state: 'dead' }))[0]?.deadReason).toContain('incoming:gone');
  });

  it('dead-letters an incoming entry whose URL has a malformed escape at once, naming the secret but not the URL', async () => {
    let calls = 0;
    const { clock, store, sender: s, outbox } = await setup(async () => (calls += 1));
    await store.secrets.put('incoming:broken', 'http://127.0.0.1:1/api/open/v1/incoming/tok%E0%A4%A');
    await outbox.enqueue({
      kind: 'incoming',
      tenant: 't',
      webhook: { id: 'b', urlSecretRef: 'incoming:broken' },
      action: 'chat_message',
      payload: { text: 'x' },
    });
    s.start();
    expect(await runClockUntil(clock, async () => (await store.outbox.list({ state: 'dead' })).length === 1)).toBe(true);
    const [dead] = await store.outbox.list({ state: 'dead' });
    expect(dead?.deadReason).toContain('secret "incoming:broken" holds a URL whose token is not valid percent-encoding');
    expect(dead?.deadReason).not.toContain('tok%E0');
    expect(dead?.attempts).toBe(1);
    expect(calls).toBe(0);
  });

  it('releases an entry in flight when stopped, remembering that it may have been sent', async () => {
    let started = false;
    const {
      store,
      sender: s,
      outbox,
    } = await setup(
      (_endpoint, input) =>
        new Promise((_resolve, reject) => {
          started = true;
          input.signal?.addEventListener('abort', () => reject(input.signal?.reason));
        }),
    );
    const { id } = await outbox.enqueue({ kind: 'post', tenant: 't', wallId: 3, body: 'slow' });
    s.start();
    await runClockUntil(new AdjustableClock({ frozen: true }), () => started);
    await s.stop(0);
    const entry = await store.outbox.get(id);
    expect(entry).toMatchObject({ state: 'pending', lastError: 'released: the sender stopped' });
    expect(await readNote(store.kv('outbox'), attemptKey(id))).toMatchObject({ maybeSent: true });
  });
});
