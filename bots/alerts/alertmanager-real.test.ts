import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Pair, startPair } from 'intrabot/testing';
import { NO_ALERTMANAGER, type RealAlertmanager, startAlertmanager } from './real-alertmanager';

/** The bot's name, once: its inputs are /alerts/<bot>/<input> (a copy made with intrabot new --from is renamed here). */
const BOT = 'alerts';

if (NO_ALERTMANAGER) console.warn(NO_ALERTMANAGER);

describe.skipIf(NO_ALERTMANAGER)('a real Prometheus Alertmanager sending to the alerts bot', () => {
  let pair: Pair;
  let alertmanager: RealAlertmanager | undefined;

  beforeAll(async () => {
    // the bot's silence commands reach this Alertmanager, which sends to the bot's input: its port is chosen first
    const port = await freePort();
    pair = await startPair({ bots: [BOT], env: { ALERTMANAGER_URL: `http://127.0.0.1:${port}` } });
    await pair.platform.settings({ rate_limit_per_minute: 600 });
    alertmanager = await startAlertmanager(`${pair.runtime.inspect().url}/alerts/${BOT}/alertmanager`, port);
  }, 30_000);

  const fire = async (...alertnames: string[]) => {
    const alerts = alertnames.map((alertname) => ({
      labels: { alertname, severity: 'warning', instance: 'db-2' },
      annotations: { summary: `${alertname} on db-2` },
    }));
    const res = await fetch(`${alertmanager!.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(alerts),
    });
    expect(res.ok).toBe(true);
  };

  type AmAlert = { labels: Record<string, string>; status: { state: string; silencedBy: string[] } };
  /** Alerts into Alertmanager by labels: firing (no end), or resolved (ended a second ago). */
  const inAlertmanager = async (labels: Record<string, string>[], state: 'firing' | 'resolved') => {
    const endsAt = state === 'resolved' ? { endsAt: new Date(Date.now() - 1_000).toISOString() } : {};
    const res = await fetch(`${alertmanager!.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(labels.map((l) => ({ labels: l, annotations: { summary: `${l.alertname} on ${l.instance}` }, ...endsAt }))),
    });
    expect(res.ok).toBe(true);
  };

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

  it("a manager's /silence on the wall creates the silence in Alertmanager, and the next notification of that group is not posted", async () => {
    const refs = await pair.refs();
    const wall = refs.department_walls.Operations!;
    const command = await pair.platform.employeePost(refs.manager_ids[0]!, { wall_id: wall, body: '/silence alertname=BackupLate 1h nightly backup moved' });
    const answer = await pair.platform.waitFor(
      () => pair.platform.commentsOn(command.id),
      (c) => c.length > 0,
    );
    expect(answer[0]?.body).toMatch(/^🔕 Silenced alertname="BackupLate" until .+ \(silence [\w-]+\)\.$/);
    const silences = (await (await fetch(`${alertmanager!.url}/api/v2/silences`)).json()) as {
      matchers: { name: string; value: string }[];
      comment: string;
      status: { state: string };
    }[];
    expect(silences).toContainEqual(
      expect.objectContaining({
        comment: 'nightly backup moved',
        status: { state: 'active' },
        matchers: [expect.objectContaining({ name: 'alertname', value: 'BackupLate' })],
      }),
    );

    // fired together, in two groups: the unsilenced one arriving shows the silenced one was not sent
    await fire('BackupLate', 'ReplicaLagHigh');
    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(wall),
      (p) => p.some((x) => x.body?.includes('ReplicaLagHigh')),
      20_000,
    );
    await pair.settle();
    const after = await pair.platform.wallPosts(wall);
    expect(after.filter((p) => p.id !== command.id && p.body?.includes('BackupLate'))).toEqual([]);
    expect(posts.length).toBeGreaterThan(0);
  }, 30_000);

  it('an ack under the post silences its group in Alertmanager (it holds the next alert of the group suppressed), and the watch job resolves the post once the alerts resolved', async () => {
    const refs = await pair.refs();
    const wall = refs.department_walls.Operations!;
    const db3 = { alertname: 'AckedDiskFull', severity: 'warning', instance: 'db-3' };
    await inAlertmanager([db3], 'firing');
    const posted = await pair.platform.waitFor(
      () => pair.platform.wallPosts(wall),
      (p) => p.some((x) => x.body?.includes('AckedDiskFull')),
      20_000,
    );
    const post = posted.find((p) => p.body?.includes('AckedDiskFull'))!;

    await pair.platform.employeeComment(refs.employee_ids[0]!, { post_id: post.id, body: 'ack' });
    const answer = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.some((x) => x.body?.includes('🔕')),
      20_000,
    );
    expect(answer.find((c) => c.body?.includes('🔕'))?.body).toMatch(/\n🔕 Silenced alertname="AckedDiskFull" until they resolve \(silence [\w-]+\)\.$/);

    // Alertmanager holds the group's alerts, one more included, silenced by the ack's silence: it notifies none of them
    const id = /\(silence ([\w-]+)\)/.exec(answer.find((c) => c.body?.includes('🔕'))!.body!)![1]!;
    await inAlertmanager([{ ...db3, instance: 'db-4' }], 'firing');
    const held = await pair.platform.waitFor(
      async () => (await (await fetch(`${alertmanager!.url}/api/v2/alerts?filter=alertname%3D%22AckedDiskFull%22`)).json()) as AmAlert[],
      (alerts) => alerts.length === 2 && alerts.every((a) => a.status.state === 'suppressed'),
      10_000,
    );
    expect(held.map((a) => a.status.silencedBy)).toEqual([[id], [id]]);

    await inAlertmanager([db3, { ...db3, instance: 'db-4' }], 'resolved');
    expect((await pair.runJob(BOT, 'watch-silences')).outcome).toBe('ok');
    await pair.settle();
    const edited = (await pair.platform.wallPosts(wall)).find((p) => p.id === post.id);
    expect(edited?.body).toMatch(/\n\n✋ Acknowledged by .+\n✅ Resolved$/);
    expect((await pair.platform.commentsOn(post.id)).at(-1)?.body).toBe(
      '✅ Resolved: Alertmanager lists none of these alerts any more (they resolved while silenced).',
    );
  }, 40_000);
});
