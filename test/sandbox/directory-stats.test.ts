import { describe, expect, it } from 'vitest';
import { ApiForbiddenError, ApiValidationError } from '../../src/api/errors';
import { isoWeek, periods } from '../../src/sandbox/routes/directory/stats-engagement';
import { failure, useHttpSandbox } from './http-harness';

const HOUR_S = 3_600;

describe('sandbox statistics', () => {
  const h = useHttpSandbox();

  it('summarises users from the directory (spec: Statistics, /stats/users)', async () => {
    const data = await h.api.stats.users();
    // the 38 employees and the admin are registered; the pending invitation counts in total only
    expect(data.registered).toBe(39);
    expect(data.total).toBe(40);
    expect(data.active_30d).toBeLessThanOrEqual(data.registered);
    expect(data.active_7d).toBeLessThanOrEqual(data.active_30d);
    expect(data.active_yesterday).toBeLessThanOrEqual(data.active_7d);
    expect(data.active_30d).toBeLessThan(data.registered);
  });

  it('answers cached user numbers for an hour, then fresh ones (spec: Statistics; Limits, statistics cache)', async () => {
    const first = await h.api.stats.users();
    await h.api.users.create({ email: 'fresh@sandbox.example', first_name: 'Fresh', last_name: 'Face' });
    await h.control.advance(59 * 60);
    expect(await h.api.stats.users()).toEqual(first);
    await h.control.advance(61);
    const later = await h.api.stats.users();
    expect(later.registered).toBe(first.registered + 1);
    expect(later.new_7d).toBe(first.new_7d + 1);
  });

  it('answers cached engagement for 24 hours (spec: Statistics, engagement 24 h)', async () => {
    const query = { granularity: 'day', scope: 3 } as const;
    const first = await h.api.stats.engagement(query);
    expect(first).toHaveLength(3);
    await h.control.advance(23 * HOUR_S);
    expect(await h.api.stats.engagement(query)).toEqual(first);
    await h.control.advance(2 * HOUR_S);
    const later = await h.api.stats.engagement(query);
    expect(later.map((p) => p.day)).toEqual([...first.slice(1).map((p) => p.day), 23]);
  });

  it('keys engagement periods by the granularity, weekly by default with 12 periods (spec: Statistics)', async () => {
    const weekly = await h.api.stats.engagement();
    expect(weekly).toHaveLength(12);
    expect(weekly.at(-1)).toMatchObject({ year: 2026, week: 47 });
    for (const p of weekly) expect(Object.keys(p).sort()).toEqual(['active_users', 'app_time', 'app_users', 'sessions', 'total_users', 'week', 'year']);
    const monthly = await h.api.stats.engagement({ granularity: 'month', scope: 2 });
    expect(monthly.map((p) => [p.year, p.month])).toEqual([
      [2026, 10],
      [2026, 11],
    ]);
    // the client's types allow only the known granularities, so the unknown one goes over raw HTTP
    const bad = await h.raw('GET', '/stats/engagement?granularity=year');
    expect(bad.status).toBe(422);
    expect(bad.json<{ message: string }>().message).toMatch(/^granularity/);
  });

  it('restricts engagement and adoption to group_ids', async () => {
    const sales = h.refs.departments.Sales as number;
    const [all] = await h.api.stats.engagement({ scope: 1 });
    const [some] = await h.api.stats.engagement({ scope: 1, group_ids: [sales] });
    expect(some!.total_users).toBeLessThan(all!.total_users);
    const adoption = await h.api.stats.adoption({ group_ids: [sales] });
    expect(adoption.adoption_rate.departments.map((d) => d.id)).toEqual([sales]);
    const error = await failure(h.api.stats.adoption({ group_ids: 'a,b' }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'group_ids' });
  });

  it('reports adoption per department with consistent counts (spec: Statistics, /stats/adoption)', async () => {
    const { adoption_rate } = await h.api.stats.adoption();
    expect(adoption_rate.departments).toHaveLength(4);
    for (const d of adoption_rate.departments) {
      expect(d.active + d.not_active).toBe(d.total_employees);
      expect(d.average).toBeCloseTo((100 * d.active) / d.total_employees, 0);
    }
    expect(adoption_rate.average).toBeGreaterThan(0);
  });

  it('counts content this week, last week and in total, cached for an hour (spec: Statistics, /stats/content)', async () => {
    const first = await h.api.stats.content();
    expect(Object.keys(first).sort()).toEqual(['chat_messages', 'comments', 'posts', 'reactions', 'todo_tasks_completed']);
    expect(first.posts?.total).toBeGreaterThan(0);
    await h.api.posts.create(h.refs.company_wall_id, { body: 'One more' });
    expect(await h.api.stats.content()).toEqual(first);
    await h.control.advance(HOUR_S);
    const later = await h.api.stats.content();
    expect(later.posts?.total).toBe((first.posts?.total as number) + 1);
  });

  it('needs read:stats', async () => {
    const error = await failure((await h.clientWith(['read:users'])).stats.users());
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ missingScope: 'read:stats' });
  });
});

describe('engagement periods', () => {
  it('numbers ISO weeks across a year boundary', () => {
    expect(isoWeek('2026-11-22')).toEqual({ year: 2026, week: 47 });
    expect(isoWeek('2027-01-01')).toEqual({ year: 2026, week: 53 });
    expect(isoWeek('2024-12-30')).toEqual({ year: 2025, week: 1 });
  });

  it('ends with the current period and goes back one period at a time', () => {
    expect(periods('2026-03-02', 'day', 3).map((p) => p.start)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
    expect(periods('2026-11-22', 'week', 2).map((p) => [p.start, p.end])).toEqual([
      ['2026-11-09', '2026-11-16'],
      ['2026-11-16', '2026-11-23'],
    ]);
    expect(periods('2026-01-15', 'month', 2).map((p) => p.key)).toEqual([
      { year: 2025, month: 12 },
      { year: 2026, month: 1 },
    ]);
  });
});
