import { describe, expect, it } from 'vitest';
import { testBot } from '../../src/testing';
import { validateAlertInputs } from '../../src/alerts/alert-input';
import { onCallAt } from '../../src/alerts/oncall';
import { OnCallSchema } from '../../src/bots/manifest-oncall';

const WEEK = 7 * 24 * 60 * 60 * 1000;
const rota = OnCallSchema.parse({ rota: ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'], from: '2026-01-05T09:00:00+01:00' });

describe('who is on call', () => {
  it('is the person named, at any time', () => {
    expect(onCallAt(OnCallSchema.parse({ person: 'Ada Lovelace' }), 0)).toBe('Ada Lovelace');
  });

  it('hands a rota on every week (the default) at the time of day it started, in order, round and round', () => {
    const start = Date.parse('2026-01-05T09:00:00+01:00');
    expect(onCallAt(rota, start)).toBe('Ada Lovelace');
    expect(onCallAt(rota, start + WEEK - 1)).toBe('Ada Lovelace');
    expect(onCallAt(rota, start + WEEK)).toBe('Grace Hopper');
    expect(onCallAt(rota, start + 2 * WEEK)).toBe('Alan Turing');
    expect(onCallAt(rota, start + 3 * WEEK)).toBe('Ada Lovelace');
  });

  it('hands on as often as `every` says, and gives the first name before the rota starts', () => {
    const daily = OnCallSchema.parse({ rota: ['A', 'B'], every: '1d', from: '2026-01-05T00:00:00Z' });
    expect(onCallAt(daily, Date.parse('2026-01-06T12:00:00Z'))).toBe('B');
    expect(onCallAt(daily, Date.parse('2025-12-01T00:00:00Z'))).toBe('A');
  });

  it('refuses a rota without its start or with an empty list, naming the field', () => {
    expect(OnCallSchema.safeParse({ rota: ['A'] }).success).toBe(false);
    expect(OnCallSchema.safeParse({ rota: [], from: '2026-01-05T00:00:00Z' }).success).toBe(false);
    expect(OnCallSchema.safeParse({ rota: ['A'], from: '5 January' }).error?.issues[0]?.message).toMatch(/ISO 8601/);
  });
});

const PAGER = new URL('../fixtures/bots-oncall/pager/', import.meta.url);

const notification = (alerts: { alertname: string; team: string }[]) => ({
  version: '4',
  status: 'firing',
  receiver: 'intranet',
  groupKey: `{}:{team="${alerts[0]!.team}"}`,
  groupLabels: { team: alerts[0]!.team },
  commonLabels: {},
  commonAnnotations: {},
  externalURL: 'http://alertmanager',
  alerts: alerts.map((labels) => ({
    status: 'firing',
    labels,
    annotations: { summary: `${labels.alertname} fired` },
    startsAt: '2026-06-10T08:00:00Z',
    fingerprint: labels.alertname,
  })),
});

describe('a route that names a team: its firing messages name who is on call', () => {
  it("names the rota's person of the day on the post of the alerts it routes, and no one on others", async () => {
    const bot = await testBot(PAGER, { now: '2026-06-10T10:00:00Z' });
    const payments = await bot.alert('am', notification([{ alertname: 'CardDeclinesHigh', team: 'payments' }]));
    // 2026-06-10 is in the second week from June 1st: Grace's turn
    expect(payments.sent).toEqual([expect.objectContaining({ kind: 'post', wall: 5, text: expect.stringMatching(/\n\nOn call: Grace Hopper$/) })]);
    const platform = await bot.alert('am', notification([{ alertname: 'NodeDown', team: 'platform' }]));
    expect(platform.sent).toEqual([expect.objectContaining({ wall: 4, text: expect.stringMatching(/\n\nOn call: Alan Turing$/) })]);
    const other = await bot.alert('am', notification([{ alertname: 'Misc', team: 'web' }]));
    expect(other.sent).toEqual([expect.objectContaining({ wall: 4, text: expect.not.stringContaining('On call') })]);
  });

  it('refuses a route naming a team the input has no oncall for, at load and in testBot, naming the field', async () => {
    const bot = await testBot(PAGER, { env: { PLATFORM_TEAM: 'web' } });
    const problem = /alerts\.0\.route\.1\.oncall: no team "web" in alerts\.0\.oncall \(it has payments, platform\)/;
    await expect(bot.alert('am', notification([{ alertname: 'NodeDown', team: 'platform' }]))).rejects.toThrow(problem);
    expect(() => validateAlertInputs(bot.manifest, 'sandbox')).toThrow(problem);
  });
});
