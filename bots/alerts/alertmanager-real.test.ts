import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pair, startPair } from 'intrabot/testing';
import { NO_ALERTMANAGER, type RealAlertmanager, startAlertmanager } from './real-alertmanager';

if (NO_ALERTMANAGER) console.warn(NO_ALERTMANAGER);

describe.skipIf(NO_ALERTMANAGER)('a real Prometheus Alertmanager sending to the alerts bot', () => {
  let pair: Pair;
  let alertmanager: RealAlertmanager | undefined;

  beforeAll(async () => {
    pair = await startPair({ bots: ['alerts'] });
    await pair.platform.settings({ rate_limit_per_minute: 600 });
    alertmanager = await startAlertmanager(`${pair.runtime.inspect().url}/alerts/alerts/alertmanager`);
  }, 30_000);

  afterAll(async () => {
    await alertmanager?.stop();
    await pair?.close();
  });

  it('delivers an alert fired into Alertmanager as a post on the Operations wall', async () => {
    const alert = [{ labels: { alertname: 'DiskAlmostFull', severity: 'warning', instance: 'db-1' }, annotations: { summary: 'Disk on db-1 is 93% full' } }];
    const res = await fetch(`${alertmanager!.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(alert),
    });
    expect(res.ok).toBe(true);
    const wall = (await pair.refs()).department_walls.Operations!;
    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(wall),
      (p) => p.some((x) => x.body?.includes('DiskAlmostFull')),
      20_000,
    );
    expect(posts.find((p) => p.body?.includes('DiskAlmostFull'))?.body).toContain('Disk on db-1 is 93% full');
  }, 30_000);
});
