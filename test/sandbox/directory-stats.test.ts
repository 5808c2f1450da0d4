import { afterEach, describe, expect, it } from 'vitest';
import { isoWeek, periods } from '../../src/sandbox/routes/directory/stats-engagement';
import { harness, type Harness } from './directory-harness';

const HOUR = 3_600_000;
type Data<T> = { data: T };
type Summary = Record<'total' | 'registered' | 'active_yesterday' | 'active_7d' | 'active_30d' | 'new_yesterday' | 'new_7d' | 'new_30d', number>;
type Period = Record<'year' | 'total_users' | 'app_users' | 'active_users' | 'app_time' | 'sessions', number> & Partial<Record<'day' | 'week' | 'month', number>>;
type Department = Record<'id' | 'active' | 'not_active' | 'total_employees' | 'average', number>;

describe('sandbox statistics', () => {
  let h: Harness;
  afterEach(async () => h.close());

  it('summarises users from the directory (spec: Statistics, /stats/users)', async () => {
    h = harness();
    const { data } = (await h.api('GET', '/stats/users')).json() as Data<Summary>;
    // the 38 employees and the admin are registered; the pending invitation counts in total only
    expect(data.registered).toBe(39);
    expect(data.total).toBe(40);
    expect(data.active_30d).toBeLessThanOrEqual(data.registered);
    expect(data.active_7d).toBeLessThanOrEqual(data.active_30d);
    expect(data.active_yesterday).toBeLessThanOrEqual(data.active_7d);
    expect(data.active_30d).toBeLessThan(data.registered);
  });

  it('answers cached user numbers for an hour, then fresh ones (spec: Statistics; Limits, statistics cache)', async () => {
    h = harness();
    const first = ((await h.api('GET', '/stats/users')).json() as Data<Summary>).data;
    await h.api('POST', '/users', { email: 'fresh@sandbox.example', first_name: 'Fresh', last_name: 'Face' });
    h.clock.advance(59 * 60_000);
    expect(((await h.api('GET', '/stats/users')).json() as Data<Summary>).data).toEqual(first);
    h.clock.advance(61_000);
    const later = ((await h.api('GET', '/stats/users')).json() as Data<Summary>).data;
    expect(later.registered).toBe(first.registered + 1);
    expect(later.new_7d).toBe(first.new_7d + 1);
  });

  it('answers cached engagement for 24 hours (spec: Statistics, engagement 24 h)', async () => {
    h = harness();
    const first = ((await h.api('GET', '/stats/engagement?granularity=day&scope=3')).json() as Data<Period[]>).data;
    expect(first).toHaveLength(3);
    h.clock.advance(23 * HOUR);
    expect(((await h.api('GET', '/stats/engagement?granularity=day&scope=3')).json() as Data<Period[]>).data).toEqual(first);
    h.clock.advance(2 * HOUR);
    const later = ((await h.api('GET', '/stats/engagement?granularity=day&scope=3')).json() as Data<Period[]>).data;
    expect(later.map((p) => p.day)).toEqual([...first.slice(1).map((p) => p.day), 23]);
  });

  it('keys engagement periods by the granularity, weekly by default with 12 periods (spec: Statistics)', async () => {
    h = harness();
    const weekly = ((await h.api('GET', '/stats/engagement')).json() as Data<Period[]>).data;
    expect(weekly).toHaveLength(12);
    expect(weekly.at(-1)).toMatchObject({ year: 2026, week: 47 });
    for (const p of weekly) expect(Object.keys(p).sort()).toEqual(['active_users', 'app_time', 'app_users', 'sessions', 'total_users', 'week', 'year']);
    const monthly = ((await h.api('GET', '/stats/engagement?granularity=month&scope=2')).json() as Data<Period[]>).data;
    expect(monthly.map((p) => [p.year, p.month])).toEqual([[2026, 10], [2026, 11]]);
    const bad = await h.api('GET', '/stats/engagement?granularity=year');
    expect(bad.statusCode).toBe(422);
    expect((bad.json() as { message: string }).message).toMatch(/^granularity/);
  });

  it('restricts engagement and adoption to group_ids', async () => {
    h = harness();
    const sales = h.refs.departments.Sales as number;
    const all = ((await h.api('GET', '/stats/engagement?scope=1')).json() as Data<Period[]>).data[0] as Period;
    const some = ((await h.api('GET', `/stats/engagement?scope=1&group_ids=${sales}`)).json() as Data<Period[]>).data[0] as Period;
    expect(some.total_users).toBeLessThan(all.total_users);
    const adoption = ((await h.api('GET', `/stats/adoption?group_ids=${sales}`)).json() as Data<{ adoption_rate: { departments: { id: number }[] } }>).data;
    expect(adoption.adoption_rate.departments.map((d) => d.id)).toEqual([sales]);
    expect((await h.api('GET', '/stats/adoption?group_ids=a,b')).statusCode).toBe(422);
  });

  it('reports adoption per department with consistent counts (spec: Statistics, /stats/adoption)', async () => {
    h = harness();
    const { adoption_rate } = ((await h.api('GET', '/stats/adoption')).json() as Data<{ adoption_rate: { average: number; departments: Department[] } }>).data;
    expect(adoption_rate.departments).toHaveLength(4);
    for (const d of adoption_rate.departments) {
      expect(d.active + d.not_active).toBe(d.total_employees);
      expect(d.average).toBeCloseTo((100 * d.active) / d.total_employees, 0);
    }
    expect(adoption_rate.average).toBeGreaterThan(0);
  });

  it('counts content this week, last week and in total, cached for an hour (spec: Statistics, /stats/content)', async () => {
    h = harness();
    const first = ((await h.api('GET', '/stats/content')).json() as Data<Record<string, Record<string, number>>>).data;
    expect(Object.keys(first).sort()).toEqual(['chat_messages', 'comments', 'posts', 'reactions', 'todo_tasks_completed']);
    expect(first.posts?.total).toBeGreaterThan(0);
    await h.api('POST', `/walls/${h.refs.company_wall_id}/posts`, { body: 'One more' });
    expect(((await h.api('GET', '/stats/content')).json() as Data<typeof first>).data).toEqual(first);
    h.clock.advance(HOUR);
    const later = ((await h.api('GET', '/stats/content')).json() as Data<typeof first>).data;
    expect(later.posts?.total).toBe((first.posts?.total as number) + 1);
  });

  it('needs read:stats', async () => {
    h = harness();
    const token = await h.tokenWith(['read:users']);
    const res = await h.api('GET', '/stats/users', undefined, token);
    expect(res.statusCode).toBe(403);
    expect((res.json() as { message: string }).message).toContain('read:stats');
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
    expect(periods('2026-11-22', 'week', 2).map((p) => [p.start, p.end])).toEqual([['2026-11-09', '2026-11-16'], ['2026-11-16', '2026-11-23']]);
    expect(periods('2026-01-15', 'month', 2).map((p) => p.key)).toEqual([{ year: 2025, month: 12 }, { year: 2026, month: 1 }]);
  });
});
