import { describe, expect, it } from 'vitest';
import { incrementalSync, newestCreatedAt } from '../../../src/api/sync';
import { API, json, ORIGIN, platformDouble, testEndpoints as ep } from './platform-double';

describe('incremental sync (spec: Pagination, since)', () => {
  it('passes since and returns the newest created_at seen as the new cursor', async () => {
    const { client, on, seen } = platformDouble();
    on(
      'GET',
      (p) => p.startsWith(`${API}/walls/3/things`),
      () =>
        json(200, {
          data: [
            { id: 2, created_at: '2030-01-14T10:00:00+01:00' },
            { id: 3, created_at: '2030-01-15T08:30:00+00:00' },
            { id: 1, created_at: '2030-01-15T09:00:00+01:00' },
          ],
          links: { next: null },
        }),
    );
    const result = await incrementalSync(client, ep.list, { since: '2030-01-14T00:00:00+01:00', params: { wall_id: 3 } });
    expect(new URL(`${ORIGIN}${seen[0]?.path}`).searchParams.get('since')).toBe('2030-01-14T00:00:00+01:00');
    expect(result.items.map((i) => i.id)).toEqual([2, 3, 1]);
    // 08:30Z is later than 09:00+01:00 (08:00Z): compared as instants, not as text
    expect(result.cursor).toBe('2030-01-15T08:30:00+00:00');
  });

  it('keeps the cursor unchanged when nothing new came', async () => {
    const { client, on } = platformDouble();
    on(
      'GET',
      (p) => p.startsWith(`${API}/walls/3/things`),
      () => json(200, { data: [], links: { next: null } }),
    );
    const result = await incrementalSync(client, ep.list, { since: '2030-01-14', params: { wall_id: 3 } });
    expect(result).toEqual({ items: [], cursor: '2030-01-14' });
  });

  it('reads everything without since on the first pass', async () => {
    const { client, on, seen } = platformDouble();
    on(
      'GET',
      (p) => p.startsWith(`${API}/walls/3/things`),
      () => json(200, { data: [{ id: 1, created_at: '2030-01-01T00:00:00Z' }], links: { next: null } }),
    );
    const result = await incrementalSync(client, ep.list, { params: { wall_id: 3 } });
    expect(new URL(`${ORIGIN}${seen[0]?.path}`).searchParams.has('since')).toBe(false);
    expect(result.cursor).toBe('2030-01-01T00:00:00Z');
  });

  it('ignores items without a readable created_at when choosing the cursor', () => {
    expect(newestCreatedAt([{ id: 1 }, { created_at: 'not a date' }], undefined)).toBeUndefined();
  });
});
