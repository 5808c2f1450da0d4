import { describe, expect, it } from 'vitest';
import { dueSlots, planCatchUp, START_GRACE_MS } from '../../src/scheduler/catch-up';

const at = (iso: string): number => Date.parse(iso);
const HOUR = 3_600_000;

describe('planCatchUp', () => {
  const daily = { cron: '0 9 * * *', timezone: 'UTC' };

  it('runs the latest missed slot when it is within the catch-up window and skips the older ones', () => {
    const plan = planCatchUp({ ...daily, catchUpMs: HOUR, seenMs: at('2026-01-05T08:00:00Z'), nowMs: at('2026-01-07T09:30:00Z') });
    expect(plan).toEqual({ run: at('2026-01-07T09:00:00Z'), skipped: 2, latestSkipped: at('2026-01-06T09:00:00Z'), capped: false });
  });

  it('skips every missed slot when the latest is older than the window', () => {
    const plan = planCatchUp({ ...daily, catchUpMs: HOUR, seenMs: at('2026-01-05T08:00:00Z'), nowMs: at('2026-01-07T10:30:00Z') });
    expect(plan).toEqual({ skipped: 3, latestSkipped: at('2026-01-07T09:00:00Z'), capped: false });
  });

  it('skips missed slots without a catch_up setting, beyond the start grace', () => {
    const plan = planCatchUp({ ...daily, seenMs: at('2026-01-07T08:00:00Z'), nowMs: at('2026-01-07T09:00:00Z') + START_GRACE_MS + 1 });
    expect(plan.run).toBeUndefined();
    expect(plan.skipped).toBe(1);
  });

  it('has nothing to do on the first start or when nothing was missed', () => {
    expect(planCatchUp({ ...daily, catchUpMs: HOUR, seenMs: undefined, nowMs: at('2026-01-07T09:30:00Z') })).toEqual({ skipped: 0, capped: false });
    expect(planCatchUp({ ...daily, catchUpMs: HOUR, seenMs: at('2026-01-07T09:00:00Z'), nowMs: at('2026-01-07T09:30:00Z') })).toEqual({
      skipped: 0,
      capped: false,
    });
  });

  it('leaves a slot exactly at "now" to the regular timer', () => {
    expect(planCatchUp({ ...daily, catchUpMs: HOUR, seenMs: at('2026-01-07T08:00:00Z'), nowMs: at('2026-01-07T09:00:00Z') })).toEqual({
      skipped: 0,
      capped: false,
    });
  });

  it('finds the latest missed slot even when the count of missed slots is capped', () => {
    const plan = planCatchUp({
      cron: '* * * * * *',
      timezone: 'UTC',
      catchUpMs: 10_000,
      seenMs: at('2026-01-01T00:00:00Z'),
      nowMs: at('2026-01-03T00:00:00.500Z'),
    });
    expect(plan.run).toBe(at('2026-01-03T00:00:00Z'));
    expect(plan.capped).toBe(true);
  });
});

describe('dueSlots', () => {
  const hourly = ['0 * * * *', 'UTC'] as const;

  it('runs the one slot a timer fired for', () => {
    expect(dueSlots(...hourly, at('2026-01-01T09:30:00Z'), at('2026-01-01T10:00:00Z'))).toEqual({
      run: [at('2026-01-01T10:00:00Z')],
      late: { count: 0, capped: false },
    });
  });

  it('runs the latest slot after a clock jump and skips older ones beyond the start grace', () => {
    expect(dueSlots(...hourly, at('2026-01-01T07:30:00Z'), at('2026-01-01T10:20:00Z'))).toEqual({
      run: [at('2026-01-01T10:00:00Z')],
      late: { count: 2, latest: at('2026-01-01T09:00:00Z'), capped: false },
    });
  });

  it('runs every slot a stalled timer passed within the start grace', () => {
    const due = dueSlots('* * * * * *', 'UTC', at('2026-01-01T00:00:00.500Z'), at('2026-01-01T00:00:02.100Z'));
    expect(due.run).toEqual([at('2026-01-01T00:00:01Z'), at('2026-01-01T00:00:02Z')]);
    expect(due.late.count).toBe(0);
  });

  it('finds the latest slot after a jump longer than the scan cap', () => {
    const due = dueSlots('* * * * *', 'UTC', at('2026-01-01T00:00:30Z'), at('2026-02-01T00:00:30Z'));
    expect(due.run).toEqual([at('2026-02-01T00:00:00Z')]);
    expect(due.late).toMatchObject({ latest: at('2026-01-31T23:59:00Z'), capped: true });
  });
});
