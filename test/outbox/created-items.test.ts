import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { CreatedItems, ITEM_CLAIM_TTL_MS } from '../../src/outbox/created-items';
import { openTempStore, type TestStore } from './helpers';

let temp: TestStore | undefined;
afterEach(async () => {
  await temp?.close();
  temp = undefined;
});

async function setup(): Promise<{ clock: AdjustableClock; items: CreatedItems; other: CreatedItems }> {
  const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
  temp = await openTempStore(clock);
  const kv = temp.store.kv('outbox');
  return { clock, items: new CreatedItems(temp.store.claims, kv), other: new CreatedItems(temp.store.claims, kv) };
}

describe('CreatedItems', () => {
  it('gives an item to the first attempt that claims it, and keeps it theirs', async () => {
    const { items } = await setup();
    expect(await items.claim('acme', { kind: 'post', id: 7 }, 'attempt:a')).toBe(true);
    expect(await items.claim('acme', { kind: 'post', id: 7 }, 'attempt:a')).toBe(true);
    expect(await items.claim('acme', { kind: 'post', id: 7 }, 'attempt:b')).toBe(false);
  });

  it('keeps kinds and tenants apart', async () => {
    const { items } = await setup();
    expect(await items.claim('acme', { kind: 'post', id: 7 }, 'attempt:a')).toBe(true);
    expect(await items.claim('acme', { kind: 'comment', id: 7 }, 'attempt:b')).toBe(true);
    expect(await items.claim('globex', { kind: 'post', id: 7 }, 'attempt:b')).toBe(true);
  });

  it('gives an item claimed by two attempts at once to exactly one of them', async () => {
    const { items, other } = await setup();
    const results = await Promise.all([items.claim('acme', { kind: 'event', id: 3 }, 'attempt:a'), other.claim('acme', { kind: 'event', id: 3 }, 'attempt:b')]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('forgets a claim after its time to live', async () => {
    const { clock, items } = await setup();
    await items.claim('acme', { kind: 'announcement', id: 4 }, 'attempt:a');
    clock.advance(ITEM_CLAIM_TTL_MS + 1);
    expect(await items.claim('acme', { kind: 'announcement', id: 4 }, 'attempt:b')).toBe(true);
  });
});
