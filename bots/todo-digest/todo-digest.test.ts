import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pair, startPair, testBot } from 'intrabot/testing';
import { TodoListStatsReportSchema } from 'intrabot';
import { summarize } from './summarize';

const department = (name: string, completed: number, total: number) => ({
  id: name.length,
  name,
  list_count: 1,
  total_tasks: total,
  completed_tasks: completed,
  completion_percentage: total === 0 ? 0 : Math.round((completed / total) * 10_000) / 100,
  todo_list_templates: { data: [] },
});
const report = (departments: ReturnType<typeof department>[]) => ({
  data: {
    total_lists: departments.length,
    total_tasks: departments.reduce((n, d) => n + d.total_tasks, 0),
    completed_tasks: departments.reduce((n, d) => n + d.completed_tasks, 0),
    departments,
  },
});

describe('todo-digest reports, in process', () => {
  const at = '2026-06-10T16:00:00Z';

  it('posts the digest on its target wall, the departments behind marked and named', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: at });
    const sent = await bot.report('todoliststats.daily', report([department('Sales', 2, 10), department('People', 9, 10)]));
    expect(sent).toEqual([
      {
        kind: 'post',
        wall: 'Company',
        text: ['✅ Todo lists, 10 June 2026: 55% done (11 of 20 tasks)', '• People: 90% (9/10)', '⚠️ Sales: 20% (2/10)', 'Behind (under 50%): Sales.'].join(
          '\n',
        ),
      },
    ]);
  });

  it('posts nothing for a report without tasks, and says so in its log', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: at });
    expect(await bot.report('todoliststats.weekly', report([department('Sales', 0, 0)]))).toEqual([]);
    expect(bot.logs).toContainEqual({ level: 'info', message: 'weekly todo report without tasks: no digest' });
  });
});

// End to end: the sandbox sends its signed outgoing reports to the runtime.
describe('todo-digest bot', () => {
  let pair: Pair;

  beforeAll(async () => {
    pair = await startPair({ bots: ['todo-digest'] });
  });
  afterAll(async () => pair?.close());

  it('posts a per-department summary of the report the platform sends, marking those behind', async () => {
    const wall = (await pair.refs()).company_wall_id;
    const report = await pair.platform.request<{ data: { id: number } }>('POST', '/_sandbox/reports', {
      url: `${pair.runtime.inspect().url}/reports/sandbox/todo-digest`,
      schedule: 'daily',
      secret: 'sandbox-report-secret',
    });
    const sent = await pair.platform.request<{ data: { state: string } }>('POST', `/_sandbox/reports/${report.data.id}/test`, {});
    expect(sent.data.state).toBe('delivered');

    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(wall),
      (p) => p.some((post) => String(post.body).startsWith('✅ Todo lists')),
    );
    const body = String(posts.find((p) => String(p.body).startsWith('✅ Todo lists'))!.body);

    // what the platform sent, read back from its delivery log
    const [attempt] = await pair.platform.deliveries({ event: 'service.todoliststats.daily' });
    const payload = TodoListStatsReportSchema.parse((JSON.parse(String(attempt!.body)) as { payload: unknown }).payload);
    const departments = payload.data.departments.filter((d) => d.total_tasks > 0);
    expect(departments.length).toBeGreaterThan(1);
    for (const d of departments) {
      const mark = d.completion_percentage < 50 ? '⚠️' : '•';
      expect(body).toContain(`${mark} ${d.name}: ${Math.round(d.completion_percentage)}% (${d.completed_tasks}/${d.total_tasks})`);
    }
    const behind = departments.filter((d) => d.completion_percentage < 50).map((d) => d.name);
    if (behind.length > 0) expect(body).toContain('Behind (under 50%): ');
    else expect(body).toContain('Every department is at 50% or more.');
    expect(body).toContain(`(${payload.data.completed_tasks} of ${payload.data.total_tasks} tasks)`);
  });

  it('posts the weekly report too, saying it covers the week (spec: Outgoing reports, schedules daily and weekly)', async () => {
    const wall = (await pair.refs()).company_wall_id;
    const report = await pair.platform.request<{ data: { id: number } }>('POST', '/_sandbox/reports', {
      url: `${pair.runtime.inspect().url}/reports/sandbox/todo-digest`,
      schedule: 'weekly',
      secret: 'sandbox-report-secret',
    });
    const sent = await pair.platform.request<{ data: { state: string } }>('POST', `/_sandbox/reports/${report.data.id}/test`, {});
    expect(sent.data.state).toBe('delivered');
    const [attempt] = await pair.platform.deliveries({ event: 'service.todoliststats.weekly' });
    expect(attempt).toBeDefined();
    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(wall),
      (p) => p.some((post) => String(post.body).startsWith('✅ Todo lists, week to ')),
    );
    expect(posts.filter((post) => String(post.body).startsWith('✅ Todo lists, week to '))).toHaveLength(1);
  });

  it('refuses a report signed with another secret, posting nothing', async () => {
    const wall = (await pair.refs()).company_wall_id;
    const before = (await pair.platform.wallPosts(wall)).length;
    const report = await pair.platform.request<{ data: { id: number } }>('POST', '/_sandbox/reports', {
      url: `${pair.runtime.inspect().url}/reports/sandbox/todo-digest`,
      schedule: 'daily',
      secret: 'someone-elses-report-secret',
    });
    const sent = await pair.platform.request<{ data: { state: string } }>('POST', `/_sandbox/reports/${report.data.id}/test`, {});
    expect(sent.data.state).not.toBe('delivered');
    expect((await pair.platform.wallPosts(wall)).length).toBe(before);
  });
});

describe('summarize', () => {
  it('orders departments best first and marks those under the threshold as behind', () => {
    const summary = summarize(report([department('Sales', 2, 3), department('People', 9, 10), department('Operations', 7, 10)]), 70);
    expect(summary.departments.map((d) => [d.name, d.percent, d.behind])).toEqual([
      ['People', 90, false],
      ['Operations', 70, false],
      ['Sales', 67, true],
    ]);
    expect(summary.behind.map((d) => d.name)).toEqual(['Sales']);
    expect(summary.percent).toBe(78); // 18 of 23
  });

  it('leaves out departments without tasks', () => {
    const summary = summarize(report([department('Sales', 0, 0), department('People', 1, 2)]), 75);
    expect(summary.departments.map((d) => d.name)).toEqual(['People']);
  });
});
