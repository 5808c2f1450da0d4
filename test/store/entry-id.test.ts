import { describe, expect, it } from 'vitest';
import { newEntryId } from '../../src/store/queue';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('queue entry ids (UUIDv7)', () => {
  it('are UUIDv7s whose first 48 bits are the millisecond they were made', () => {
    const at = Date.UTC(2026, 10, 27, 12, 0, 0, 123);
    const id = newEntryId(at);
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sort by the time they were made', () => {
    const ids = [3, 1, 2].map((s) => newEntryId(Date.UTC(2026, 0, 1, 0, 0, s)));
    expect([...ids].sort()).toEqual([ids[1], ids[2], ids[0]]);
  });

  it('never repeat within one millisecond, across many draws of random bytes', () => {
    const at = Date.now();
    const ids = Array.from({ length: 5_000 }, () => newEntryId(at));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 200)) expect(id).toMatch(UUID_V7);
  });
});
