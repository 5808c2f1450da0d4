import { describe, expect, it } from 'vitest';
import { fixture } from './load-fixture';
import { basic, harness, post, textsTo } from './input-route-harness';

describe('POST /alerts/:bot/:input, formats', () => {
  it('accepts an Alertmanager notification with 202 and routes severity=critical to another target', async () => {
    const h = await harness();
    const res = await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: 3, queued: 2 });
    const [oncall] = textsTo(h, 'oncall');
    const [wall] = textsTo(h, 'ops-wall');
    expect(oncall).toContain('FIRING [CRITICAL] HighHTTPErrorRate');
    expect(oncall).not.toContain('KubePodCrashLooping');
    expect(oncall).toContain('Runbook: https://wiki.example.internal/runbooks/checkout/high-error-rate');
    expect(wall).toContain('KubePodCrashLooping');
    expect(wall).not.toContain('HighHTTPErrorRate');
    // plain text: quotes and URL query characters come out as written
    expect(wall).toContain('(reason: "CrashLoopBackOff")');
    expect(wall).not.toMatch(/&quot;|&#x3D;|&amp;/);
    expect(h.sent.every((m) => m.tenant === 'sandbox' && m.bot === 'alerts')).toBe(true);
  });

  it('accepts a Grafana webhook with basic auth and renders its value and dashboard', async () => {
    const h = await harness();
    const res = await post(h, '/alerts/alerts/grafana', fixture('grafana-firing.json'), basic('grafana', 'gf-pass'));
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: 2, queued: 1 });
    const [text] = textsTo(h, 'ops-wall');
    expect(text).toContain('High p99 latency');
    expect(text).toContain('Value: A=2.3148, B=2.3148, C=1');
    expect(text).toContain('Dashboard: https://grafana.example.internal/d/chk-api-slo?from=1787214000000&orgId=1&to=1787217850417');
  });

  it.each([
    ['slack-compatible-text.json', 'High CPU utilization'],
    ['slack-compatible-blocks.json', 'Intranet SSO is down'],
    ['slack-compatible-alertmanager.json', '[FIRING:3] prod-eu-1'],
  ])('answers a Slack-compatible %s with "ok", as Slack does', async (name, title) => {
    const h = await harness();
    const res = await post(h, '/alerts/alerts/slack?token=slack-token', fixture(name), {});
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('ok');
    expect(textsTo(h, 'ops-wall')).toEqual([expect.stringContaining(title)]);
  });

  it('reads a legacy form-encoded Slack payload', async () => {
    const h = await harness();
    const payload = `payload=${encodeURIComponent(JSON.stringify({ text: 'Build #12 failed' }))}`;
    const res = await h.app.inject({
      method: 'POST',
      url: '/alerts/alerts/slack?token=slack-token',
      payload,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(200);
    expect(textsTo(h, 'ops-wall')).toEqual([expect.stringContaining('Build #12 failed')]);
  });

  it('maps a generic body with a preset (uptime-kuma)', async () => {
    const h = await harness();
    const res = await post(h, '/alerts/alerts/kuma', fixture('uptime-kuma.json'), { authorization: 'Bearer kuma-token' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: 1, queued: 1 });
    expect(textsTo(h, 'ops-wall')).toEqual([expect.stringContaining('FIRING Intranet SSO')]);
  });

  it('serves another tenant under /t/:tenant and keeps its state apart', async () => {
    const h = await harness();
    await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    const res = await post(h, '/t/acme/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect(res.json()).toEqual({ accepted: 3, queued: 2 });
    expect(h.sent.map((m) => m.tenant)).toEqual(['sandbox', 'sandbox', 'acme', 'acme']);
  });

  it("renders with the bot's templates on the tenant the request names (its time zone; a bot may be deployed there only)", async () => {
    const asked: string[] = [];
    const h = await harness({ onTemplates: (bot, tenant) => asked.push(`${tenant}/${bot}`) });
    await post(h, '/t/acme/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect([...new Set(asked)]).toEqual(['acme/alerts']);
  });

  it('answers 404 for an unknown bot or input, queueing nothing', async () => {
    const h = await harness();
    expect((await post(h, '/alerts/nobot/alertmanager', fixture('alertmanager-firing.json'))).statusCode).toBe(404);
    expect((await post(h, '/alerts/alerts/nope', fixture('alertmanager-firing.json'))).statusCode).toBe(404);
    expect(h.sent).toEqual([]);
  });
});

describe('POST /alerts/:bot/:input, credentials', () => {
  it.each([
    ['bearer, missing', '/alerts/alerts/alertmanager', {}],
    ['bearer, wrong', '/alerts/alerts/alertmanager', { authorization: 'Bearer am-tokem' }],
    ['bearer given as ?token=', '/alerts/alerts/alertmanager?token=am-token', {}],
    ['basic, missing', '/alerts/alerts/grafana', {}],
    ['basic, wrong password', '/alerts/alerts/grafana', basic('grafana', 'nope')],
    ['basic given as bearer', '/alerts/alerts/grafana', { authorization: 'Bearer gf-pass' }],
    ['query token, missing', '/alerts/alerts/slack', {}],
    ['query token, wrong', '/alerts/alerts/slack?token=slack-tokem', {}],
    ['query token given as bearer', '/alerts/alerts/slack', { authorization: 'Bearer slack-token' }],
  ])('answers 401 and queues nothing (%s)', async (_case, url, headers) => {
    const h = await harness();
    const body = url.includes('grafana') ? fixture('grafana-firing.json') : url.includes('slack') ? { text: 'x' } : fixture('alertmanager-firing.json');
    const res = await post(h, url, body, headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'unauthorized' });
    expect(h.sent).toEqual([]);
  });

  it('does not let a refused request touch the dedupe state', async () => {
    const h = await harness();
    await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'), { authorization: 'Bearer wrong' });
    const res = await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect(res.json()).toEqual({ accepted: 3, queued: 2 });
  });

  it('never writes a credential into the log', async () => {
    const h = await harness();
    await post(h, '/alerts/alerts/slack?token=slack-token', { text: 'disk full' }, {});
    await post(h, '/alerts/alerts/slack?token=slack-tokem', { text: 'disk full' }, {});
    await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'), { authorization: 'Bearer am-tokem' });
    const log = h.logs.join('\n');
    expect(log).toContain('/alerts/alerts/slack?token=[redacted]');
    expect(log).not.toMatch(/slack-toke|am-toke/);
  });
});

describe('POST /alerts/:bot/:input, bad payloads', () => {
  it('answers 400 naming the field for a body of another format, queueing nothing', async () => {
    const h = await harness();
    const res = await post(h, '/alerts/alerts/alertmanager', fixture('grafana-firing.json'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_input', details: { field: 'body.version' } });
    expect(res.json().message).toContain('body.version');
    expect(h.sent).toEqual([]);
  });

  it('answers 400 naming body.text for a Slack-style body with nothing to show', async () => {
    const h = await harness();
    const res = await post(h, '/alerts/alerts/slack?token=slack-token', { username: 'ci' }, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ details: { field: 'body.text' } });
    expect(h.sent).toEqual([]);
  });

  it('answers 400 naming body for text that is not JSON', async () => {
    const h = await harness();
    const res = await post(h, '/alerts/alerts/alertmanager', 'not json {');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_input', details: { field: 'body' } });
    expect(h.sent).toEqual([]);
  });

  it('answers 413 above the 1 MiB body limit, queueing nothing', async () => {
    const h = await harness();
    const big = { ...fixture('alertmanager-firing.json'), padding: 'x'.repeat(1024 * 1024) };
    const res = await post(h, '/alerts/alerts/alertmanager', big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: 'payload_too_large' });
    expect(h.sent).toEqual([]);
  });

  it('takes a body just under the limit', async () => {
    const h = await harness({ bodyLimit: 64 * 1024 });
    const body = { ...fixture('alertmanager-firing.json'), padding: 'x'.repeat(50 * 1024) };
    expect((await post(h, '/alerts/alerts/alertmanager', body)).statusCode).toBe(202);
  });
});
