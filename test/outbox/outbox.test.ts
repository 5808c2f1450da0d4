import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { InvalidInputError } from '../../src/errors';
import { targetOf, type OutboxEntry } from '../../src/outbox/entry';
import { DEFAULT_DEADLINE_MS, Outbox } from '../../src/outbox/outbox';
import { openTempStore, type TestStore } from './helpers';

let temp: TestStore | undefined;
afterEach(async () => {
  await temp?.close();
  temp = undefined;
});

async function setup(options: Partial<ConstructorParameters<typeof Outbox>[0]> = {}) {
  const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
  temp = await openTempStore(clock);
  return { clock, store: temp.store, outbox: new Outbox({ store: temp.store, clock, ...options }) };
}

describe('Outbox.enqueue', () => {
  it('has the entry in the store by the time it resolves, with a 24-hour deadline by default', async () => {
    const { outbox, store, clock } = await setup();
    const { id } = await outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 3, body: 'Hello' });
    const entry = await store.outbox.get(id);
    expect(entry).toMatchObject({ target: 'sandbox:wall:3', state: 'pending' });
    expect(entry?.payload).toMatchObject({ entry: { kind: 'post', body: 'Hello' }, deadlineAt: clock.now() + DEFAULT_DEADLINE_MS, onUncertain: 'resend' });
  });

  it('takes the deadline and on_uncertain per kind, and per call', async () => {
    const { outbox, store, clock } = await setup({ deadlines: { dm: 60_000 }, onUncertain: { dm: 'drop' } });
    const entry = { kind: 'dm', tenant: 'sandbox', userId: 5, botUserId: 9, text: 'hi' };
    const a = await outbox.enqueue(entry);
    const b = await outbox.enqueue(entry, { deadlineMs: 5_000, onUncertain: 'resend' });
    expect((await store.outbox.get(a.id))?.payload).toMatchObject({ deadlineAt: clock.now() + 60_000, onUncertain: 'drop' });
    expect((await store.outbox.get(b.id))?.payload).toMatchObject({ deadlineAt: clock.now() + 5_000, onUncertain: 'resend' });
  });

  it('refuses a bad entry with an error naming the field, and queues nothing', async () => {
    const { outbox, store } = await setup();
    await expect(outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 'three', body: 'x' })).rejects.toMatchObject({ field: 'entry.wallId' });
    const error = await outbox.enqueue({ kind: 'notification', tenant: 'sandbox', notification: { title: 't', body: 'b' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toMatch(/^entry\.notification/);
    await expect(outbox.enqueue({ kind: 'api', tenant: 'sandbox', endpointId: 'walls.list' })).rejects.toMatchObject({ field: 'entry.endpointId' });
    expect(await store.outbox.list()).toEqual([]);
  });

  it('queues a caller-keyed entry once, however often it is enqueued while it waits', async () => {
    const { outbox, store } = await setup();
    const entry = { kind: 'post', tenant: 'sandbox', wallId: 3, body: 'Welcome, Ada!' };
    const a = await outbox.enqueue(entry, { id: 'delivery-42:0' });
    const b = await outbox.enqueue(entry, { id: 'delivery-42:0' });
    expect([a.id, b.id]).toEqual(['delivery-42:0', 'delivery-42:0']);
    expect(await store.outbox.list()).toHaveLength(1);
  });

  it('does not queue a caller-keyed entry again once it was delivered', async () => {
    const { outbox, store } = await setup();
    await store.kv('outbox').set('done:delivery-43:0', true);
    await outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 3, body: 'Welcome, Bo!' }, { id: 'delivery-43:0' });
    expect(await store.outbox.list()).toEqual([]);
  });

  it('keeps an incoming webhook as a reference to its secret, never its URL', async () => {
    const { outbox, store } = await setup();
    const url = 'http://127.0.0.1:4010/api/open/v1/incoming/secret-token-123';
    await store.secrets.put('incoming:sandbox:ops', url);
    const { id } = await outbox.enqueue({
      kind: 'incoming',
      tenant: 'sandbox',
      webhook: { id: 'ops', urlSecretRef: 'incoming:sandbox:ops' },
      action: 'chat_message',
      payload: { text: 'disk full' },
    });
    expect(JSON.stringify(await store.outbox.get(id))).not.toContain('secret-token-123');
  });
});

describe('targetOf', () => {
  const cases: [OutboxEntry, string][] = [
    [{ kind: 'post', tenant: 't', wallId: 3, body: 'x' }, 't:wall:3'],
    [{ kind: 'comment', tenant: 't', postId: 7, wallId: 3, body: 'x' }, 't:wall:3'],
    [{ kind: 'comment', tenant: 't', postId: 7, body: 'x' }, 't:post:7'],
    [{ kind: 'dm', tenant: 't', userId: 5, botUserId: 9, text: 'x' }, 't:user:5'],
    [{ kind: 'incoming', tenant: 't', webhook: { id: 'ops', urlSecretRef: 'r' }, action: 'wall_post', payload: { text: 'x' } }, 't:incoming:ops'],
    [{ kind: 'award', tenant: 't', achievementId: 4, rows: [{ user_id: 1 }] }, 't:achievement:4'],
  ];
  it.each(cases)('orders %j under %s', (entry, target) => {
    expect(targetOf(entry)).toBe(target);
  });

  it('queues a reply with a known wall behind the posts of that wall', () => {
    expect(targetOf({ kind: 'comment', tenant: 't', postId: 7, wallId: 3, body: 'x' })).toBe(targetOf({ kind: 'post', tenant: 't', wallId: 3, body: 'y' }));
  });
});
