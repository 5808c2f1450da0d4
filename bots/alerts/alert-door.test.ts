import { describe, expect, it } from 'vitest';
import { alertSample, testBot } from 'intrabot/testing';

// the alerts bot through testBot's alert door: its inputs as POST /alerts/alerts/<input> takes them, no HTTP
const fixture = (name: string): unknown => JSON.parse(alertSample(name));
const BOT = new URL('.', import.meta.url);
const auth = { authorization: 'Bearer sandbox-alert-token' };

describe('the alerts bot, in process', () => {
  it('posts firing Alertmanager alerts on the Operations wall and sends the critical one to the on-call chat', async () => {
    const bot = await testBot(BOT, { walls: { Operations: 4 } });
    const result = await bot.alert('alertmanager', fixture('alertmanager-firing.json'), { headers: auth });
    expect(result.accepted).toBe(3);
    expect(result.queued).toBe(result.sent.length);
    const wall = result.sent.filter((s) => s.kind === 'post');
    expect(wall).toEqual([expect.objectContaining({ kind: 'post', wall: 4, text: expect.stringContaining('HighHTTPErrorRate') })]);
    expect(result.sent.filter((s) => s.kind === 'chat')).toEqual([
      expect.objectContaining({ kind: 'chat', target: 'oncall', text: expect.stringContaining('HighHTTPErrorRate') }),
    ]);
    // the critical route names who is on call (bot.yaml: oncall, ALERTS_ONCALL)
    expect(result.sent.every((s) => 'text' in s && s.text.endsWith('\n\nOn call: Ada Lovelace'))).toBe(true);
    expect(bot.sent).toEqual(result.sent);
  });

  it('does not post an unchanged repeat, and answers the firing post with a comment when the alerts resolve', async () => {
    const bot = await testBot(BOT, { walls: { Operations: 4 } });
    const firing = await bot.alert('alertmanager', fixture('alertmanager-firing.json'));
    const wallPost = firing.posts.find((p) => p.text.includes('HighHTTPErrorRate'))!;
    expect((await bot.alert('alertmanager', fixture('alertmanager-firing.json'))).sent).toEqual([]);
    const resolved = await bot.alert('alertmanager', fixture('alertmanager-resolved.json'));
    expect(resolved.sent).toContainEqual(expect.objectContaining({ kind: 'comment', postId: wallPost.postId, text: expect.stringMatching(/resolved/i) }));
  });

  it("reads each input's own format: Grafana, a Slack-compatible text and Uptime Kuma through the generic preset", async () => {
    const bot = await testBot(BOT);
    expect((await bot.alert('grafana', fixture('grafana-firing.json'))).accepted).toBeGreaterThan(0);
    expect((await bot.alert('slack', fixture('slack-compatible-text.json'))).sent).toEqual([expect.objectContaining({ kind: 'post', wall: 'Operations' })]);
    expect((await bot.alert('generic', fixture('uptime-kuma.json'))).sent).toEqual([expect.objectContaining({ kind: 'post', wall: 'Operations' })]);
  });

  it('refuses wrong credentials, an unknown input and a body its adapter cannot read, naming the field', async () => {
    const bot = await testBot(BOT);
    await expect(bot.alert('alertmanager', fixture('alertmanager-firing.json'), { headers: { authorization: 'Bearer wrong' } })).rejects.toMatchObject({
      code: 'unauthorized',
    });
    await expect(bot.alert('prometheus', {})).rejects.toThrow(
      /^input: bot \S+ has no alert input "prometheus" \(bot\.yaml alerts: alertmanager, grafana, slack, generic, datadog, sentry, azure-monitor, gcp-monitoring, jenkins, formatted-webhook, healthchecks, newrelic, kibana\)/,
    );
    await expect(bot.alert('alertmanager', { status: 'firing' })).rejects.toMatchObject({ code: 'invalid_input', field: 'body.alerts' });
    expect(bot.sent).toEqual([]);
  });

  it.each([
    ['datadog', 'datadog.json'],
    ['sentry', 'sentry-issue.json'],
    ['azure-monitor', 'azure-monitor-fired.json'],
    ['gcp-monitoring', 'gcp-monitoring-open.json'],
    ['jenkins', 'jenkins-finalized-failure.json'],
    ['formatted-webhook', 'formatted-webhook-alerting.json'],
    ['healthchecks', 'healthchecks-down.json'],
    ['newrelic', 'newrelic-activated.json'],
    ['kibana', 'kibana-active.json'],
  ])("posts what the %s input is sent (its source's documented sample) on the Operations wall", async (input, file) => {
    const bot = await testBot(BOT);
    const run = await bot.alert(input, fixture(file));
    expect(run.accepted).toBeGreaterThan(0);
    expect(run.sent).toEqual([expect.objectContaining({ kind: 'post', wall: 'Operations' })]);
  });
});
