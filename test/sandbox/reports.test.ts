import { afterEach, describe, expect, it } from 'vitest';
import { latestReportSlot } from '../../src/sandbox/delivery/report-schedule';
import { TODO_KIND, todoListStats, type TodoTaskRecord } from '../../src/sandbox/delivery/todo-stats';
import { formsModule } from '../../src/sandbox/routes/forms';
import { messagingModule } from '../../src/sandbox/routes/messaging';
import { webhooksModule } from '../../src/sandbox/routes/webhooks';
import { newUser } from '../../src/sandbox/seed/base';
import { seedTodos } from '../../src/sandbox/seed/todos';
import { KIND } from '../../src/sandbox/state/records';
import { zonedMidnight } from '../../src/sandbox/time';
import { TodoListStatsReportSchema } from '../../src/webhooks/report';
import { verify } from '../../src/webhooks/signature';
import { START, startReceiver } from './deliveries-helpers';
import { useHttpSandbox, type HttpSandbox } from './http-harness';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/**
 * Two departments with members, then the todo seed over them. This sandbox has no directory
 * module, and todo lists have no API at all, so they are written in process.
 */
function seedDirectoryAndTodos(h: HttpSandbox): void {
  const ctx = h.sandbox.ctx;
  const now = ctx.now();
  for (const name of ['Engineering', 'Sales']) {
    const group = ctx.db.insert(KIND.groups, { name, type: 'department', is_open: null, created_at: now });
    for (let i = 0; i < 3; i++) {
      ctx.db.insert(
        KIND.users,
        newUser(ctx, {
          first_name: `${name}${i}`,
          last_name: 'Person',
          email: `${name}${i}@x.example`,
          memberships: [{ group_id: group.id, is_manager: false }],
        }),
      );
    }
  }
  seedTodos(ctx);
}

/** Reports are configured in the platform's admin interface: in the sandbox, through the control API. */
async function setup(h: HttpSandbox, body: Record<string, unknown>, statuses = [200]) {
  seedDirectoryAndTodos(h);
  receiver = await startReceiver(statuses);
  const res = await h.raw('POST', '/_sandbox/reports', { body: { url: receiver.url, ...body }, token: null });
  expect(res.status).toBe(201);
  return { rx: receiver, report: res.json<{ data: { id: number; secret: string } }>().data };
}

async function advanceTo(h: HttpSandbox, iso: string) {
  await h.control.send('POST', '/clock', { now: iso });
  await h.control.send('POST', '/deliveries/settle');
}

describe('report schedule', () => {
  it('puts the slot at 07:00 Berlin time in winter and summer, and on the DST change day (spec: Outgoing reports)', () => {
    expect(new Date(latestReportSlot(Date.parse('2026-11-24T06:30:00Z'), 'daily')).toISOString()).toBe('2026-11-24T06:00:00.000Z');
    expect(new Date(latestReportSlot(Date.parse('2026-11-24T05:59:00Z'), 'daily')).toISOString()).toBe('2026-11-23T06:00:00.000Z');
    expect(new Date(latestReportSlot(Date.parse('2026-07-01T05:00:00Z'), 'daily')).toISOString()).toBe('2026-07-01T05:00:00.000Z');
    expect(new Date(latestReportSlot(Date.parse('2026-03-29T12:00:00Z'), 'daily')).toISOString()).toBe('2026-03-29T05:00:00.000Z');
  });

  it('puts the weekly slot on the latest Monday at 07:00 Berlin time (spec: Outgoing reports)', () => {
    // 2026-11-28 is a Saturday; the Monday before is 2026-11-23
    expect(new Date(latestReportSlot(Date.parse('2026-11-28T12:00:00Z'), 'weekly')).toISOString()).toBe('2026-11-23T06:00:00.000Z');
    expect(new Date(latestReportSlot(Date.parse('2026-11-23T05:00:00Z'), 'weekly')).toISOString()).toBe('2026-11-16T06:00:00.000Z');
  });
});

describe('outgoing reports', () => {
  const h = useHttpSandbox({ seed: 'empty', start: START, modules: [webhooksModule, messagingModule, formsModule] });

  it('returns the generated secret only in the create response (spec: Outgoing reports)', async () => {
    const { report } = await setup(h, { schedule: 'daily' });
    expect(report.secret.length).toBeGreaterThanOrEqual(32);
    const list = await h.raw('GET', '/_sandbox/reports', { token: null });
    expect(list.text).not.toContain(report.secret);
    expect(list.json<{ data: unknown[] }>().data).toHaveLength(1);
  });

  it('delivers the daily report at 07:00 CET, signed, as service.todoliststats.daily (spec: Outgoing reports)', async () => {
    const { rx, report } = await setup(h, { schedule: 'daily' });
    await advanceTo(h, '2026-11-24T06:59:00+01:00');
    expect(rx.received).toHaveLength(0);
    await advanceTo(h, '2026-11-24T07:00:00+01:00');
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0]!;
    expect(
      verify(
        { secret: report.secret, signature: got.headers.signature as string, timestamp: got.headers.timestamp as string, rawBody: got.body },
        await h.control.now(),
      ).ok,
    ).toBe(true);
    const envelope = JSON.parse(got.body) as { event: string; customer: string; payload: unknown };
    expect(envelope.event).toBe('service.todoliststats.daily');
    expect(envelope.customer).toBe('sandbox');
    const payload = TodoListStatsReportSchema.parse(envelope.payload);
    expect(payload.data.departments.map((d) => d.name)).toEqual(['Engineering', 'Sales']);
    expect(payload.data.total_tasks).toBeGreaterThan(0);
    // the same slot is not sent twice
    await advanceTo(h, '2026-11-24T12:00:00+01:00');
    expect(rx.received).toHaveLength(1);
  });

  it('delivers the weekly report on Mondays only, as service.todoliststats.weekly (spec: Outgoing reports; weekly name not shown)', async () => {
    const { rx } = await setup(h, { schedule: 'weekly' });
    await advanceTo(h, '2026-11-24T07:00:00+01:00');
    await advanceTo(h, '2026-11-29T23:00:00+01:00');
    expect(rx.received).toHaveLength(0);
    await advanceTo(h, '2026-11-30T07:00:00+01:00');
    expect(rx.received).toHaveLength(1);
    expect((JSON.parse(rx.received[0]!.body) as { event: string }).event).toBe('service.todoliststats.weekly');
  });

  it("sends yesterday's data now on the test button: tasks checked today do not count (spec: Outgoing reports)", async () => {
    const { rx, report } = await setup(h, { schedule: 'daily', auth_type: 'bearer_token', auth_value: 'rep-token' });
    expect(await h.control.send('POST', `/reports/${report.id}/test`)).toMatchObject({ data: { state: 'delivered' } });
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.headers.authorization).toBe('Bearer rep-token');
    const payload = TodoListStatsReportSchema.parse((JSON.parse(rx.received[0]!.body) as { payload: unknown }).payload);
    const midnight = zonedMidnight('2026-11-23', 'Europe/Berlin');
    const tasks = h.sandbox.ctx.db.all<TodoTaskRecord>(TODO_KIND.tasks);
    const doneBefore = tasks.filter((t) => t.checked_at !== null && t.checked_at < midnight).length;
    const doneToday = tasks.filter((t) => t.checked_at !== null && t.checked_at >= midnight).length;
    expect(doneToday).toBeGreaterThan(0);
    expect(payload.data.completed_tasks).toBe(doneBefore);
    expect(payload.data.total_tasks).toBe(tasks.length);
    const dept = payload.data.departments[0]!;
    expect(dept.completion_percentage).toBe(Math.round((dept.completed_tasks / dept.total_tasks) * 10_000) / 100);
  });

  it('retries a failed report delivery a minute later, like webhooks (spec: Outgoing reports)', async () => {
    const { rx, report } = await setup(h, { schedule: 'daily' }, [502, 200]);
    await advanceTo(h, '2026-11-24T07:00:00+01:00');
    expect(rx.received).toHaveLength(1);
    await advanceTo(h, '2026-11-24T07:01:00+01:00');
    expect(rx.received).toHaveLength(2);
    const log = ((await h.control.send('GET', `/deliveries?report_id=${report.id}`)) as { data: { attempt: number; ok: boolean }[] }).data;
    expect(log.map((d) => [d.attempt, d.ok])).toEqual([
      [2, true],
      [1, false],
    ]);
  });
});

describe('demo seed', () => {
  const h = useHttpSandbox({ seed: 'demo', start: START });

  it('seeds todo lists for every department of the directory, some tasks checked (spec: Outgoing reports)', async () => {
    const departments = Object.values(h.refs.departments).sort((a, b) => a - b);
    // todo lists have no API: the report's data is computed in process, as the report would
    const report = TodoListStatsReportSchema.parse(todoListStats(h.sandbox.ctx, await h.control.now()));
    expect(report.data.departments.map((d) => d.id)).toEqual(departments);
    for (const d of report.data.departments) {
      expect(d.list_count).toBeGreaterThan(0);
      expect(d.completed_tasks).toBeGreaterThan(0);
      expect(d.completed_tasks).toBeLessThan(d.total_tasks);
    }
  });
});
