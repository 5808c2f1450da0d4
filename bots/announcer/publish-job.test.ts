import { describe, expect, it } from 'vitest';
import { testBot } from 'intrabot/testing';

// In process: the jobs run against a recording context on a clock that stands still. The reminders,
// which read announcements and confirmations back from the platform, are tested end to end in
// announcer.test.ts.

// Monday 2026-06-01, 09:00 in Berlin: the weekly menu's cron slot
const MONDAY_9 = Date.parse('2026-06-01T07:00:00Z');
const DAY_MS = 86_400_000;

describe('announcer jobs, in process', () => {
  it('publishes the weekly menu from its template, company-wide', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: MONDAY_9 });
    const [sent, ...rest] = await bot.job('weekly-menu');
    expect(rest).toEqual([]);
    expect(sent).toMatchObject({ kind: 'announcement', announcement: { title: "This week's menu", groups: [] } });
    const body = sent?.kind === 'announcement' ? String(sent.announcement.body) : '';
    expect(body).toMatch(/^Here is the canteen menu for the week of 1 June 2026:/);
    expect(body).toContain('• Monday: Lentil soup');
  });

  it('publishes nothing twice for one slot, however often the slot runs', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: MONDAY_9 });
    expect(await bot.job('weekly-menu', { slot: MONDAY_9 })).toHaveLength(1);
    expect(await bot.job('weekly-menu', { slot: MONDAY_9 })).toEqual([]);
    expect(await bot.job('weekly-menu', { slot: MONDAY_9 + 7 * DAY_MS })).toHaveLength(1);
  });

  it("creates the all-hands event on the day 7 days after the slot in the tenant's zone, published 2 days before", async () => {
    // 00:30 on June 2 in Berlin, still June 1 in UTC: the event is 7 days after June 2
    const lateSlot = Date.parse('2026-06-01T22:30:00Z');
    const bot = await testBot(new URL('.', import.meta.url), { now: lateSlot });
    expect(await bot.job('all-hands', { slot: lateSlot })).toEqual([
      {
        kind: 'event',
        event: {
          title: 'Monthly all-hands',
          body: expect.stringContaining('Our monthly all-hands takes place on'),
          groups: [],
          starts_at: '2026-06-09',
          publish_at: new Date(lateSlot + 5 * DAY_MS).toISOString(),
          starts_time: '16:00',
          location: 'Main hall',
        },
      },
    ]);
  });

  it('resolves group names to ids, and refuses a name no group has, naming the config field', async () => {
    const config = {
      announcements: [{ job: 'weekly-menu', as: 'announcement', title: 'Menu', template: 'weekly-menu', groups: ['Sales', 4], data: { days: [] } }],
    };
    const groups = [{ id: 3, name: 'Sales' }];
    const bot = await testBot(new URL('.', import.meta.url), { now: MONDAY_9, config, api: { 'groups.list': groups } });
    expect((await bot.job('weekly-menu'))[0]).toMatchObject({ kind: 'announcement', announcement: { groups: [3, 4] } });
    bot.stub('groups.list', []);
    await expect(bot.job('weekly-menu', { slot: MONDAY_9 + DAY_MS })).rejects.toMatchObject({
      key: 'config.announcements.0.groups',
      message: 'no group named "Sales"',
    });
  });
});
