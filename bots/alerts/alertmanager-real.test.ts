import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Pair, startPair } from 'intrabot/testing';

// Debian's prometheus-alertmanager; .ci/run installs it. Elsewhere the test says why it is skipped.
const BINARY = ['prometheus-alertmanager', 'alertmanager'].find((b) => spawnSync(b, ['--version']).status === 0);
if (!BINARY) console.warn('skipping the real Alertmanager test: install Debian\'s "prometheus-alertmanager" package to run it');

describe.skipIf(!BINARY)('a real Prometheus Alertmanager sending to the alerts bot', () => {
  let pair: Pair;
  let alertmanager: ChildProcess | undefined;
  let amUrl: string;
  const dir = mkdtempSync(join(tmpdir(), 'intrabot-am-'));

  beforeAll(async () => {
    pair = await startPair({ bots: ['alerts'] });
    await pair.platform.settings({ rate_limit_per_minute: 600 });
    const port = await freePort();
    amUrl = `http://127.0.0.1:${port}`;
    writeFileSync(
      join(dir, 'alertmanager.yml'),
      [
        'route:',
        '  receiver: intranet',
        '  group_by: [alertname]',
        '  group_wait: 1s',
        '  group_interval: 5s',
        'receivers:',
        '  - name: intranet',
        '    webhook_configs:',
        `      - url: ${pair.runtime.inspect().url}/alerts/alerts/alertmanager`,
        '        send_resolved: true',
        '        http_config:',
        '          authorization:',
        '            type: Bearer',
        '            credentials: sandbox-alert-token',
        '',
      ].join('\n'),
    );
    alertmanager = spawn(
      BINARY!,
      [`--config.file=${join(dir, 'alertmanager.yml')}`, `--storage.path=${dir}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address='],
      { stdio: 'ignore' },
    );
    await pair.platform.waitFor(
      () =>
        fetch(`${amUrl}/-/ready`).then(
          (r) => r.ok,
          () => false,
        ),
      (ok) => ok,
      15_000,
    );
  }, 30_000);

  afterAll(async () => {
    alertmanager?.kill('SIGTERM');
    await pair?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers an alert fired into Alertmanager as a post on the Operations wall', async () => {
    const alert = [{ labels: { alertname: 'DiskAlmostFull', severity: 'warning', instance: 'db-1' }, annotations: { summary: 'Disk on db-1 is 93% full' } }];
    const res = await fetch(`${amUrl}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(alert) });
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
