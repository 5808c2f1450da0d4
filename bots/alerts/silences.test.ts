import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBot } from 'intrabot/testing';
import { NO_ALERTMANAGER, type RealAlertmanager, startAlertmanager } from './real-alertmanager';

const manager = { id: 7, name: 'Ada Lovelace', is_manager: true };
const engineer = { id: 8, name: 'Grace Hopper', is_manager: false };
const now = '2026-06-10T09:00:00Z';
const botAt = (url: string) => testBot(new URL('.', import.meta.url), { now, config: { alertmanager: { url } } });
const textOf = (sent: unknown[]) => (sent as { text: string }[]).map((s) => s.text).join('\n');

describe('alerts bot: the silence commands without an Alertmanager', () => {
  it('says how to set one instead of failing', async () => {
    const bot = await botAt('');
    expect(textOf(await bot.command('/silence alertname=DiskFull 2h', { user: manager }))).toBe(
      'No Alertmanager is set for silences: set ALERTMANAGER_URL (and ALERTMANAGER_TOKEN if it needs one).',
    );
  });

  it('refuses /silence and /unsilence to someone who is not a manager, and lets anyone list', async () => {
    const bot = await botAt('http://127.0.0.1:9');
    expect(textOf(await bot.command('/silence alertname=DiskFull 2h', { user: engineer }))).toMatch(/manager/i);
    expect(textOf(await bot.command('/unsilence abc', { user: engineer }))).toMatch(/manager/i);
    expect(textOf(await bot.command('/silences', { user: engineer }))).toContain('Alertmanager at 127.0.0.1:9 could not be reached');
  });

  it('answers a /silence it cannot read with the problem and the usage, asking nothing of Alertmanager', async () => {
    const bot = await botAt('http://127.0.0.1:9');
    expect(textOf(await bot.command('/silence alertname=DiskFull soon', { user: manager }))).toBe(
      'Not silenced: "soon" is neither a matcher nor a duration (such as 30m, 2h, 1d).\nUsage: /silence alertname=DiskFull instance=db-1 2h replacing the disk',
    );
  });

  it('names the inputs that have an Alertmanager when --input names another', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now, config: { alertmanagers: { grafana: { url: 'http://127.0.0.1:9' } } } });
    expect(textOf(await bot.command('/silences --input=prom', { user: manager }))).toBe('No Alertmanager is set for input "prom" (known: grafana).');
  });
});

if (NO_ALERTMANAGER) console.warn(NO_ALERTMANAGER);

describe.skipIf(NO_ALERTMANAGER)('alerts bot: silences in a real Alertmanager (API v2)', () => {
  let alertmanager: RealAlertmanager | undefined;
  const silencesIn = async () =>
    (await (await fetch(`${alertmanager!.url}/api/v2/silences`)).json()) as {
      id: string;
      status: { state: string };
      createdBy: string;
      comment: string;
      matchers: unknown[];
      startsAt: string;
      endsAt: string;
    }[];

  beforeAll(async () => {
    alertmanager = await startAlertmanager();
  }, 30_000);
  afterAll(async () => alertmanager?.stop());

  it('/silence creates the silence, made by the person who asked, for the duration, with the comment', async () => {
    // Alertmanager checks endsAt against its own clock, so the bot's clock is the real one here
    const bot = await testBot(new URL('.', import.meta.url), { config: { alertmanager: { url: alertmanager!.url } } });
    const before = Date.now();
    const answer = textOf(await bot.command('/silence alertname=DiskFull instance=~"db-.*" 2h replacing the disk', { user: manager }));
    const id = /\(silence ([\w-]+)\)/.exec(answer)?.[1];
    expect(answer).toMatch(/^🔕 Silenced alertname="DiskFull", instance=~"db-\.\*" until /);
    const made = (await silencesIn()).find((s) => s.id === id)!;
    expect(made).toMatchObject({
      status: { state: 'active' },
      createdBy: 'Ada Lovelace',
      comment: 'replacing the disk',
      matchers: [
        { name: 'alertname', value: 'DiskFull', isRegex: false, isEqual: true },
        { name: 'instance', value: 'db-.*', isRegex: true, isEqual: true },
      ],
    });
    const lasts = Date.parse(made.endsAt) - Date.parse(made.startsAt);
    expect(Math.abs(lasts - 2 * 3_600_000)).toBeLessThan(5_000);
    expect(Date.parse(made.startsAt)).toBeGreaterThanOrEqual(before - 1_000);
  });

  it('/silences lists the active ones with their ids; /unsilence expires one and it leaves the list', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { config: { alertmanager: { url: alertmanager!.url } } });
    const answer = textOf(await bot.command('/silence job=backup 30m', { user: manager }));
    const id = /\(silence ([\w-]+)\)/.exec(answer)![1]!;
    expect((await silencesIn()).find((s) => s.id === id)?.comment).toBe('silenced from the intranet by Ada Lovelace');
    const listed = textOf(await bot.command('/silences', { user: engineer }));
    expect(listed).toContain(`• ${id} job="backup" until `);
    expect(listed).toContain('by Ada Lovelace');

    expect(textOf(await bot.command(`/unsilence ${id}`, { user: manager }))).toBe(`🔔 Silence ${id} expired: its alerts notify again.`);
    expect((await silencesIn()).find((s) => s.id === id)?.status.state).toBe('expired');
    expect(textOf(await bot.command('/silences', { user: engineer }))).not.toContain(id);
  });

  it('/unsilence of an id Alertmanager does not know says so', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { config: { alertmanager: { url: alertmanager!.url } } });
    const answer = textOf(await bot.command('/unsilence 00000000-0000-0000-0000-000000000000', { user: manager }));
    expect(answer).toBe('Alertmanager knows no silence 00000000-0000-0000-0000-000000000000 (see /silences).');
  });
});
