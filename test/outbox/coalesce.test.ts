import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { DEFAULT_COALESCE, packDigests, prepareDigest } from '../../src/outbox/coalesce';
import { OutboxRecordSchema } from '../../src/outbox/entry';
import { Outbox } from '../../src/outbox/outbox';
import { openTempStore, type TestStore } from './helpers';

let temp: TestStore | undefined;
afterEach(async () => {
  await temp?.close();
  temp = undefined;
});

describe('packDigests', () => {
  it('packs texts in order into as few parts as fit the limit', () => {
    expect(packDigests(['a', 'b', 'c'], 3, '\n')).toEqual(['a\nb', 'c']);
    expect(packDigests(['alpha', 'beta', 'gamma', 'delta'], 13, ' | ')).toEqual(['alpha | beta', 'gamma | delta']);
  });

  it('keeps every text whole and in order across the parts', () => {
    const texts = Array.from({ length: 200 }, (_, i) => `alert ${i}: disk ${'x'.repeat(i % 37)} full`);
    const parts = packDigests(texts, 500, '\n\n');
    expect(parts.every((p) => p.length <= 500)).toBe(true);
    expect(parts.join('\n\n').split('\n\n')).toEqual(texts);
  });

  it('splits a text longer than a part across consecutive parts without losing any of it', () => {
    const long = 'word '.repeat(50).trim();
    const parts = packDigests(['short', long, 'tail'], 60, '\n');
    expect(parts.every((p) => p.length <= 60)).toBe(true);
    expect(parts.join('')).toContain('tail');
    expect(parts.join('').replace(/\n/g, '')).toBe(`short${long}tail`);
  });
});

describe('prepareDigest', () => {
  const hook = { id: 'ops', urlSecretRef: 'incoming:ops' };
  const alert = (text: string, extra: Record<string, unknown> = {}) => ({
    kind: 'incoming',
    tenant: 't',
    webhook: hook,
    action: 'chat_message',
    payload: { text, ...extra },
  });

  async function setup() {
    const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
    temp = await openTempStore(clock);
    const store = temp.store;
    const deps = { queue: store.outbox, kv: store.kv('outbox'), options: DEFAULT_COALESCE, capacityOf: () => 2, ttlMs: 60_000, now: () => clock.now() };
    return { clock, store, deps, outbox: new Outbox({ store, clock }) };
  }

  it('merges the queued texts behind the head up to the first one that cannot join, keeping the rest in line', async () => {
    const { store, deps, outbox } = await setup();
    await outbox.enqueue(alert('a'));
    const b = await outbox.enqueue(alert('b'));
    const c = await outbox.enqueue(alert('c', { media: [{ url: 'https://example.com/x.png', type: 'image' }] }));
    const d = await outbox.enqueue(alert('d'));
    const lease = await store.outbox.reserve(10_000);
    const digest = await prepareDigest(deps, lease!, OutboxRecordSchema.parse(lease!.payload));
    expect(digest).toEqual({ parts: ['a\n\nb'], sent: 0, members: [b.id] });
    expect((await store.outbox.list()).map((e) => e.id)).toEqual([lease!.id, c.id, d.id]);
  });

  it("does not merge another bot's message into a bot's digest (it may be paused: its messages wait)", async () => {
    const { store, deps, outbox } = await setup();
    await outbox.enqueue(alert('a'), { bot: 'alerts' });
    const b = await outbox.enqueue(alert('b'), { bot: 'alerts' });
    const other = await outbox.enqueue(alert('c'), { bot: 'ops' });
    await outbox.enqueue(alert('d'), { bot: 'alerts' });
    const lease = await store.outbox.reserve(10_000);
    expect(await prepareDigest(deps, lease!, OutboxRecordSchema.parse(lease!.payload))).toMatchObject({ parts: ['a\n\nb'], members: [b.id] });
    expect((await store.outbox.list()).map((e) => e.id)).toContain(other.id);
  });

  it('leaves a target within its budget alone', async () => {
    const { store, deps, outbox } = await setup();
    await outbox.enqueue(alert('a'));
    await outbox.enqueue(alert('b'));
    const lease = await store.outbox.reserve(10_000);
    expect(await prepareDigest(deps, lease!, OutboxRecordSchema.parse(lease!.payload))).toBeUndefined();
  });

  it('does not pull a scheduled message forward into a digest', async () => {
    const { clock, store, deps, outbox } = await setup();
    await outbox.enqueue(alert('a'));
    await outbox.enqueue(alert('b'));
    await outbox.enqueue(alert('later'), { notBeforeMs: clock.now() + 3_600_000 });
    const lease = await store.outbox.reserve(10_000);
    expect((await prepareDigest(deps, lease!, OutboxRecordSchema.parse(lease!.payload)))?.parts).toEqual(['a\n\nb']);
  });

  it('resumes a saved digest after a crash, dropping members that were left in the queue', async () => {
    const { store, deps, outbox } = await setup();
    await outbox.enqueue(alert('a'));
    const b = await outbox.enqueue(alert('b'));
    await outbox.enqueue(alert('c'));
    const lease = await store.outbox.reserve(10_000);
    const saved = { parts: ['a\n\nb'], sent: 0, members: [b.id] };
    // the crash came after saving the digest and before dropping its members
    await deps.kv.set(`digest:${lease!.id}`, saved);
    expect(await prepareDigest(deps, lease!, OutboxRecordSchema.parse(lease!.payload))).toEqual(saved);
    expect(await store.outbox.get(b.id)).toBeUndefined();
  });
});
