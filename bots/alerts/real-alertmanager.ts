import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from 'intrabot/testing';

// Test support for the alerts bot: Debian's prometheus-alertmanager (.ci/run installs it).
const BINARY = ['prometheus-alertmanager', 'alertmanager'].find((b) => spawnSync(b, ['--version']).status === 0);

/** Why the tests that need a real Alertmanager are skipped here, or undefined when one can run. */
export const NO_ALERTMANAGER = BINARY ? undefined : 'skipping the real Alertmanager tests: install Debian\'s "prometheus-alertmanager" package to run them';

/** A running Alertmanager on a free loopback port, stopped (and its files removed) by `stop`. */
export interface RealAlertmanager {
  url: string;
  /** Stops it and removes its files once it has exited (it writes its state on the way out). */
  stop(): Promise<void>;
}

/**
 * Starts an Alertmanager whose one receiver posts to `webhook` (with the sandbox's alert token), or
 * sends nowhere without one, on `port` (default: a free one), and resolves once it answers `/-/ready`.
 */
export async function startAlertmanager(webhook?: string, port?: number): Promise<RealAlertmanager> {
  if (!BINARY) throw new Error(NO_ALERTMANAGER);
  const dir = mkdtempSync(join(tmpdir(), 'intrabot-am-'));
  writeFileSync(join(dir, 'alertmanager.yml'), configOf(webhook));
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    BINARY,
    [`--config.file=${join(dir, 'alertmanager.yml')}`, `--storage.path=${dir}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address='],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  while (!(await ready(url))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`Alertmanager did not get ready at ${url}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, stop };
}

function ready(url: string): Promise<boolean> {
  return fetch(`${url}/-/ready`).then(
    (res) => res.ok,
    () => false,
  );
}

function configOf(webhook: string | undefined): string {
  const receiver = webhook
    ? [
        '    webhook_configs:',
        `      - url: ${webhook}`,
        '        send_resolved: true',
        '        http_config:',
        '          authorization:',
        '            type: Bearer',
        '            credentials: sandbox-alert-token',
      ]
    : [];
  return [
    'route:',
    '  receiver: intranet',
    '  group_by: [alertname]',
    '  group_wait: 1s',
    '  group_interval: 5s',
    'receivers:',
    '  - name: intranet',
    ...receiver,
    '',
  ].join('\n');
}
