import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AlertSendMessage } from '../../src/alerts/alert-deployments';
import { stripPartNumber } from '../../src/templates/split-message';
import { fixture } from './load-fixture';
import { harness, post, textsTo } from './input-route-harness';

describe('POST /alerts/:bot/:input, dedupe and resolution', () => {
  it('keeps the alerts of a target that cannot exist, so the first send after the fix posts them', async () => {
    let problem: string | undefined = 'no wall named "Operatons" on tenant sandbox';
    const h = await harness({ targetProblem: async (_tenant, _bot, target) => (target === 'ops-wall' ? problem : undefined) });
    const refused = await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect(refused.statusCode).toBe(422);
    // the critical alert went to the on-call chat; the wall's message (the two warnings) was not queued
    expect(refused.json()).toMatchObject({ error: 'alert_target_missing', details: { queued: 1 } });
    expect(textsTo(h, 'ops-wall')).toEqual([]);
    problem = undefined;
    const fixed = await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect(fixed.json()).toEqual({ accepted: 3, queued: 1 });
    expect(textsTo(h, 'ops-wall')).toEqual([expect.stringMatching(/KubePodCrashLooping/)]);
    expect(textsTo(h, 'oncall')).toHaveLength(1);
  });

  it('posts nothing for an unchanged repeat of a group', async () => {
    const h = await harness();
    await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    h.clock.advance(5 * 60_000);
    const res = await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: 3, queued: 0 });
    expect(h.sent).toHaveLength(2);
  });

  it('posts a Slack-style message again once it has not been seen for the dedupe window (1 hour)', async () => {
    const h = await harness();
    const send = () => post(h, '/alerts/alerts/slack?token=slack-token', { text: 'Nightly backup failed' }, {});
    await send();
    h.clock.advance(30 * 60_000);
    await send();
    expect(h.sent).toHaveLength(1);
    h.clock.advance(24 * 60 * 60_000);
    await send();
    expect(h.sent).toHaveLength(2);
  });

  it('keeps an unchanged Alertmanager group quiet past that hour (its window is 7 days)', async () => {
    const h = await harness();
    await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    h.clock.advance(4 * 60 * 60_000);
    const res = await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect(res.json()).toEqual({ accepted: 3, queued: 0 });
  });

  it('posts an alert again when it comes back after 7 days unmentioned', async () => {
    const h = await harness();
    await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    h.clock.advance(8 * 24 * 60 * 60_000);
    const res = await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect(res.json()).toEqual({ accepted: 3, queued: 2 });
  });

  it('posts every change of state: resolved, then firing again', async () => {
    const h = await harness();
    await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-resolved.json'));
    expect(textsTo(h, 'ops-wall')[1]).toContain('RESOLVED KubePodCrashLooping');
    expect(textsTo(h, 'oncall')[1]).toContain('RESOLVED HighHTTPErrorRate');
    const again = fixture('alertmanager-firing.json');
    for (const alert of again.alerts as Array<Record<string, string>>) alert.startsAt = '2026-08-20T10:00:00Z';
    const res = await post(h, '/alerts/alerts/alertmanager', again);
    expect(res.json()).toEqual({ accepted: 3, queued: 2 });
    expect(textsTo(h, 'oncall')[2]).toContain('FIRING [CRITICAL] HighHTTPErrorRate');
  });

  it('answers the post that reported an alert firing when it resolves', async () => {
    const h = await harness();
    await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    const firing = h.sent.find((m) => m.target === 'ops-wall') as AlertSendMessage;
    expect(firing.replyTo).toBeUndefined();
    await h.state.recordPost('sandbox', 'alerts', firing.refs ?? [], 501);
    await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-resolved.json'));
    const resolvedWall = h.sent.slice(2).filter((m) => m.target === 'ops-wall');
    expect(resolvedWall).toEqual([expect.objectContaining({ replyTo: { postId: 501 }, text: expect.stringContaining('RESOLVED') })]);
    // the chat message's post id was never reported (chats have none): its resolution stands alone
    expect(h.sent.slice(2).find((m) => m.target === 'oncall')?.replyTo).toBeUndefined();
  });

  it('splits a long message into numbered parts within max_length, losing no text', async () => {
    const h = await harness();
    const res = await post(h, '/alerts/alerts/small', fixture('alertmanager-firing.json'));
    expect(res.statusCode).toBe(202);
    const parts = textsTo(h, 'ops-wall');
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.every((part) => part.length <= 300)).toBe(true);
    expect(parts[0]).toMatch(/^\(1\/\d+\) /);
    const whole = parts.map(stripPartNumber).join('');
    expect(whole).toContain('checkout-gateway in prod-eu-1 is answering 12.4% of requests with HTTP 5xx (threshold 5%).');
    expect(whole).toContain('https://alertmanager.example.internal/#/silences/new?filter=%7Balertname%3D%22KubePodCrashLooping%22');
    expect(new Set(h.sent.map((m) => m.dedupeKey)).size).toBe(h.sent.length);
  });

  it('lists a storm of alerts in digest form, every alert named', async () => {
    const h = await harness();
    const res = await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-storm.json'));
    expect(res.statusCode).toBe(202);
    const wall = textsTo(h, 'ops-wall').map(stripPartNumber).join('');
    expect(wall).toMatch(/^🔥 \d+ alerts firing/);
    const firing = (fixture('alertmanager-storm.json').alerts as Array<{ status: string; labels: Record<string, string> }>).filter(
      (a) => a.status === 'firing' && a.labels.severity !== 'critical',
    );
    expect(wall.match(/^🔥 FIRING/gm)?.length).toBe(firing.length);
  });
});

describe('POST /alerts/:bot/:input, nothing accepted is lost', () => {
  it('answers 503 when send fails, and the retry posts the alerts', async () => {
    const h = await harness();
    h.failSends(1);
    const res = await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(h.sent).toEqual([]);
    const retry = await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect(retry.json()).toEqual({ accepted: 3, queued: 2 });
  });

  it('after a partial failure, the retry resends only the message that was not queued', async () => {
    const h = await harness();
    h.failSends(1, 1);
    expect((await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'))).statusCode).toBe(503);
    const [first] = h.sent.map((m) => m.target);
    h.failSends(0);
    const retry = await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect(retry.json()).toEqual({ accepted: 3, queued: 1 });
    expect(h.sent.map((m) => m.target).sort()).toEqual(['oncall', 'ops-wall']);
    expect(h.sent[1]?.target).not.toBe(first);
  });

  it('resends a message cut off between its parts under the same dedupe keys, so the outbox can drop the copies', async () => {
    const reference = await harness();
    await post(reference, '/alerts/alerts/small', fixture('alertmanager-firing.json'));
    const h = await harness();
    h.failSends(1, 2);
    expect((await post(h, '/alerts/alerts/small', fixture('alertmanager-firing.json'))).statusCode).toBe(503);
    const before = h.sent.map((m) => m.dedupeKey);
    expect(before).toHaveLength(2);
    h.failSends(0);
    await post(h, '/alerts/alerts/small', fixture('alertmanager-firing.json'));
    const retried = h.sent.slice(2).map((m) => m.dedupeKey);
    expect(retried).toEqual(reference.sent.map((m) => m.dedupeKey));
    expect(retried.slice(0, 2)).toEqual(before);
  });
});

describe('POST /alerts/:bot/:input, replicas', () => {
  it('answers 503 while another replica handles the same group, and handles it once that is done', async () => {
    let open = (): void => undefined;
    let reached = (): void => undefined;
    const sending = new Promise<void>((resolve) => (reached = resolve));
    const blocked = new Promise<void>((resolve) => (open = resolve));
    const first = await harness({ gate: () => (reached(), blocked) });
    const second = await harness({ store: first.store });
    const pending = post(first, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    await sending;
    const busy = await post(second, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect(busy.statusCode).toBe(503);
    open();
    expect((await pending).json()).toEqual({ accepted: 3, queued: 2 });
    const retry = await post(second, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    expect(retry.json()).toEqual({ accepted: 3, queued: 0 });
    expect(second.sent).toEqual([]);
  });
});

describe('POST /alerts/:bot/:input, untrusted alert text', () => {
  it('keeps @everyone and <b> in alert text from becoming a mention or markup', async () => {
    const h = await harness();
    const res = await post(h, '/alerts/alerts/slack?token=slack-token', { text: 'Disk full @everyone <b>now</b> ＠here' }, {});
    expect(res.statusCode).toBe(200);
    const [text] = textsTo(h, 'ops-wall');
    expect(text).toContain('Disk full');
    expect(text).not.toMatch(/[@＠](everyone|here)/);
    expect(text).not.toContain('<b>');
    expect(text).not.toContain('&lt;');
  });
});

describe('POST /alerts/:bot/:input, templates', () => {
  it("renders with the bot's own templates first and the input's template base before those", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intrabot-alert-templates-'));
    mkdirSync(join(dir, 'alerts'));
    mkdirSync(join(dir, 'oncall'));
    writeFileSync(join(dir, 'alerts', 'resolved.hbs'), 'bot resolved: {{#each alerts}}{{title}} {{/each}}');
    writeFileSync(join(dir, 'oncall', 'firing.hbs'), 'PAGE: {{#each alerts}}{{title}}<{{severityLabel}}> {{/each}}');
    const h = await harness({ botTemplates: dir });
    await post(h, '/alerts/alerts/custom', fixture('alertmanager-firing.json'));
    await post(h, '/alerts/alerts/custom', fixture('alertmanager-resolved.json'));
    await post(h, '/alerts/alerts/alertmanager', fixture('alertmanager-firing.json'));
    const texts = h.sent.map((m) => m.text);
    expect(texts[0]).toBe('PAGE: HighHTTPErrorRate<CRITICAL> KubePodCrashLooping<WARNING> KubePodCrashLooping<WARNING>');
    expect(texts[1]).toBe('bot resolved: HighHTTPErrorRate KubePodCrashLooping KubePodCrashLooping');
    expect(texts[2]).toContain('FIRING [CRITICAL] HighHTTPErrorRate');
  });
});
