import { describe, expect, it } from 'vitest';
import { ScheduleSchema } from '../../src/bots/manifest-parts';
import { schedulesFromManifest } from '../../src/scheduler';

describe('schedulesFromManifest', () => {
  const owner = { tenant: 'acme', bot: 'birthday', timezone: 'Europe/Berlin' };

  it("uses the schedule's own time zone, and the tenant's when it names none", () => {
    const schedules = [
      ScheduleSchema.parse({ job: 'greet', cron: '0 9 * * *' }),
      ScheduleSchema.parse({ job: 'report', cron: '0 9 * * *', timezone: 'America/New_York' }),
    ];
    expect(schedulesFromManifest(schedules, owner).map((s) => [s.job, s.timezone])).toEqual([
      ['greet', 'Europe/Berlin'],
      ['report', 'America/New_York'],
    ]);
  });

  it('carries catch_up, timeout and overlap over in milliseconds, overlap skip by default', () => {
    const [withAll, plain] = schedulesFromManifest(
      [
        ScheduleSchema.parse({ job: 'digest', cron: '0 9 * * MON', catch_up: '1h', timeout: '90s', overlap: 'allow' }),
        ScheduleSchema.parse({ job: 'tick', cron: '* * * * *' }),
      ],
      owner,
    );
    expect(withAll).toEqual({
      tenant: 'acme',
      bot: 'birthday',
      job: 'digest',
      cron: '0 9 * * MON',
      timezone: 'Europe/Berlin',
      catchUpMs: 3_600_000,
      timeoutMs: 90_000,
      overlap: 'allow',
    });
    expect(plain).toEqual({ tenant: 'acme', bot: 'birthday', job: 'tick', cron: '* * * * *', timezone: 'Europe/Berlin', overlap: 'skip' });
  });
});
