import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertSample, testBot } from 'intrabot/testing';
import { NO_ALERTMANAGER, type RealAlertmanager, startAlertmanager } from './real-alertmanager';

// silence_on_ack: an acknowledgement silences its group in Alertmanager until the alerts resolve, which
// the watch-silences job learns by asking (Alertmanager sends no resolution of a silenced alert).
const BOT = new URL('.', import.meta.url);
const OPS_WALL = 4;
const ada = { id: 7, name: 'Ada Lovelace' };
const firingSample = JSON.parse(alertSample('alertmanager-firing.json')) as { alerts: { labels: Record<string, string> }[] };
const textOf = (sent: unknown[]) =>
  (sent as { kind: string; text?: string }[])
    .filter((s) => s.kind === 'comment')
    .map((s) => s.text)
    .join('\n');
let tenants = 0;

/** The alerts bot (on a tenant of its own: the watch job reads every silence of the Alertmanager) with one firing post. */
async function firing(config: Record<string, unknown>) {
  const bot = await testBot(BOT, { walls: { Operations: OPS_WALL }, tenant: { id: `ack-silence-${++tenants}` }, config });
  const run = await bot.alert('alertmanager', JSON.parse(alertSample('alertmanager-firing.json')));
  const post = run.posts.find((p) => p.text.includes('HighHTTPErrorRate'))!;
  return { bot, post, on: { on: post.postId, wall: { id: OPS_WALL, name: 'Operations' } } };
}

describe('alerts bot: an acknowledgement that would silence, without an Alertmanager to ask', () => {
  it('only acknowledges when no Alertmanager is set', async () => {
    const { bot, on } = await firing({ alertmanager: { url: '' }, silence_on_ack: { inputs: ['alertmanager'] } });
    expect(textOf(await bot.comment('ack', { ...on, user: ada }))).toMatch(/acknowledged these 3 alerts\.$/);
    expect(await bot.job('watch-silences')).toEqual([]);
  });

  it('tells the person, and keeps the acknowledgement, when the Alertmanager cannot be reached', async () => {
    const { bot, on } = await firing({ alertmanager: { url: 'http://127.0.0.1:9' }, silence_on_ack: { inputs: ['alertmanager'] } });
    const answer = textOf(await bot.comment('ack', { ...on, user: ada }));
    expect(answer).toContain('✋ Ada Lovelace acknowledged these 3 alerts.\n⚠️ Not silenced: Alertmanager at 127.0.0.1:9 could not be reached.');
    expect(bot.sent.filter((s) => s.kind === 'post-edit')).toHaveLength(1);
  });

  it('refuses a `for` that is not a duration, naming the field', async () => {
    await expect(testBot(BOT, { config: { silence_on_ack: { inputs: ['alertmanager'], for: 'a day' } } })).rejects.toThrow(/silence_on_ack\.for.*duration/s);
  });
});

if (NO_ALERTMANAGER) console.warn(NO_ALERTMANAGER);

describe.skipIf(NO_ALERTMANAGER)('alerts bot: an acknowledgement silences its group in a real Alertmanager until the alerts resolve', () => {
  let alertmanager: RealAlertmanager | undefined;
  const config = () => ({ alertmanager: { url: alertmanager!.url }, silence_on_ack: { inputs: ['alertmanager'], for: '6h' } });
  type AmSilence = { id: string; status: { state: string }; createdBy: string; comment: string; matchers: unknown[]; startsAt: string; endsAt: string };
  const silence = async (id: string) => ((await (await fetch(`${alertmanager!.url}/api/v2/silences`)).json()) as AmSilence[]).find((s) => s.id === id);
  /** Puts the sample's alerts in Alertmanager: firing (no end), or resolved (ended a second ago). */
  const inAlertmanager = async (state: 'firing' | 'resolved') => {
    const endsAt = state === 'resolved' ? { endsAt: new Date(Date.now() - 1_000).toISOString() } : {};
    const res = await fetch(`${alertmanager!.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(firingSample.alerts.map((alert) => ({ labels: alert.labels, ...endsAt }))),
    });
    expect(res.ok).toBe(true);
  };

  beforeAll(async () => {
    alertmanager = await startAlertmanager();
  }, 30_000);
  afterAll(async () => alertmanager?.stop());

  it('the first ack silences the group by its labels, made by who acknowledged, for at most `for`', async () => {
    await inAlertmanager('firing');
    const { bot, on } = await firing(config());
    const before = Date.now();
    const answer = textOf(await bot.comment('ack', { ...on, user: ada }));
    expect(answer).toMatch(/^✋ Ada Lovelace acknowledged these 3 alerts\.\n🔕 Silenced cluster="prod-eu-1" until they resolve \(silence [\w-]+\)\.$/);
    const made = await silence(/\(silence ([\w-]+)\)/.exec(answer)![1]!);
    expect(made).toMatchObject({
      status: { state: 'active' },
      createdBy: 'Ada Lovelace',
      matchers: [{ name: 'cluster', value: 'prod-eu-1', isRegex: false, isEqual: true }],
    });
    expect(made!.comment).toMatch(/^acknowledged on the intranet; ends when these alerts resolve \[intrabot ack: tenant=ack-silence-\d+ post=\d+\]$/);
    expect(Math.abs(Date.parse(made!.endsAt) - before - 6 * 3_600_000)).toBeLessThan(5_000);
    // a second ack silences nothing more
    expect(textOf(await bot.comment('ack', { ...on, user: { id: 8, name: 'Grace Hopper' } }))).toBe('Already acknowledged by Ada Lovelace.');
  });

  it('the watch job leaves the silence while Alertmanager still holds the alerts firing, and resolves the post and ends it once they resolved', async () => {
    await inAlertmanager('firing');
    const { bot, post, on } = await firing(config());
    const id = /\(silence ([\w-]+)\)/.exec(textOf(await bot.comment('ack', { ...on, user: ada })))![1]!;
    expect(await bot.job('watch-silences')).toEqual([]);
    expect((await silence(id))?.status.state).toBe('active');

    await inAlertmanager('resolved');
    expect(await bot.job('watch-silences')).toEqual([
      { kind: 'post-edit', wall: OPS_WALL, postId: post.postId, text: `${post.text}\n\n✋ Acknowledged by Ada Lovelace\n✅ Resolved: all 3 alerts` },
      { kind: 'comment', postId: post.postId, text: '✅ Resolved: Alertmanager lists none of these alerts any more (they resolved while silenced).' },
    ]);
    expect((await silence(id))?.status.state).toBe('expired');
    // once: the next run finds no silence of the post
    expect(await bot.job('watch-silences')).toEqual([]);
  });

  it('a post whose alerts resolved through the source only has its silence ended, with nothing posted', async () => {
    await inAlertmanager('firing');
    const { bot, on } = await firing(config());
    const id = /\(silence ([\w-]+)\)/.exec(textOf(await bot.comment('ack', { ...on, user: ada })))![1]!;
    await bot.alert('alertmanager', JSON.parse(alertSample('alertmanager-resolved.json')));
    expect(await bot.job('watch-silences')).toEqual([]);
    expect((await silence(id))?.status.state).toBe('expired');
  });

  it('an ack under a post of an input not listed in silence_on_ack silences nothing', async () => {
    const bot = await testBot(BOT, { walls: { Operations: OPS_WALL }, tenant: { id: `ack-silence-${++tenants}` }, config: config() });
    const run = await bot.alert('grafana', JSON.parse(alertSample('grafana-firing.json')));
    const answer = textOf(await bot.comment('ack', { on: run.posts[0]!.postId, wall: { id: OPS_WALL }, user: ada }));
    expect(answer).toMatch(/^✋ Ada Lovelace acknowledged (this alert|these \d+ alerts)\.$/);
  });
});
