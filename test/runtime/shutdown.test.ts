import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../helpers/free-port';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../../src/testing/sandbox-control';

function startProcess(env: Record<string, string>): ChildProcess {
  // the CLI as users run it: from the build, the bot compiled as it loads
  return spawn(process.execPath, ['bin/intrabot.mjs', 'start'], { env: { ...process.env, ...env }, stdio: process.env.SHUTDOWN_DEBUG ? 'inherit' : 'ignore' });
}

async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became ready`);
}

describe('graceful shutdown', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'intrabot-shutdown-'));
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no acknowledged event when SIGTERM arrives under load: each is answered once after restart', async () => {
    const [port, sandboxPort] = [await freePort(), await freePort()];
    // only the ops bot: the test is about shutdown, and fewer bots start faster on a busy machine
    const botsDir = join(dataDir, 'bots');
    cpSync('bots/ops', join(botsDir, 'ops'), { recursive: true });
    const module = join(botsDir, 'ops', 'index.ts');
    writeFileSync(module, readFileSync(module, 'utf8').replace("from '../../src'", `from '${resolve('src')}'`));
    const env = {
      INTRABOT_PORT: String(port),
      INTRABOT_SANDBOX_PORT: String(sandboxPort),
      INTRABOT_DATA_DIR: dataDir,
      INTRABOT_BOTS_DIR: botsDir,
      // one process on its own SQLite file: CI's INTRABOT_REDIS_URL would share keys with other tests
      INTRABOT_REDIS_URL: '',
      INTRABOT_LOG_LEVEL: process.env.SHUTDOWN_DEBUG ? 'info' : 'silent',
      INTRABOT_LOG_FORMAT: 'json',
    };
    const runtimeUrl = `http://127.0.0.1:${port}`;
    const platform = new SandboxControl(`http://127.0.0.1:${sandboxPort}`);

    child = startProcess(env);
    await waitReady(runtimeUrl);
    // this test is about shutdown, not pacing: 30 replies must not wait for the next rate-limit window
    await platform.settings({ rate_limit_per_minute: 1_000 });
    const posts = await Promise.all(Array.from({ length: 30 }, () => platform.employeePost(10, { wall_id: 1, body: '/oncall' })));
    // SIGTERM once the first deliveries to the ops bot are acknowledged, with the rest still coming
    await platform.waitFor(
      () => platform.request<{ data: { url: string; status_code: number | null }[] }>('GET', '/_sandbox/deliveries?event=service.post.created'),
      (r) => r.data.filter((d) => d.status_code === 200 && d.url.endsWith('/hooks/sandbox/ops')).length >= 3,
    );
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    child = startProcess(env);
    await waitReady(runtimeUrl);
    const deliveries = (await platform.deliveries({ event: 'service.post.created' })) as { status_code?: number | null; body?: string; url?: string }[];
    // only what the ops bot's endpoint acknowledged: the other bots answer no /oncall
    const acknowledged = new Set(
      deliveries
        .filter((d) => d.status_code === 200 && d.url?.endsWith('/hooks/sandbox/ops'))
        .map((d) => (JSON.parse(d.body ?? '{}') as { payload?: { id?: number } }).payload?.id),
    );
    const ours = posts.filter((p) => acknowledged.has(p.id));
    expect(ours.length).toBeGreaterThan(0);
    for (const post of ours) {
      // a reply whose send was cut by the shutdown is uncertain: the outbox looks for it on the platform
      // before resending, after giving the platform 30 s to finish what it may have received
      const comments = await platform.waitFor(
        () => platform.commentsOn(post.id),
        (c) => c.length > 0,
        50_000,
      );
      expect(comments).toHaveLength(1);
    }
    const stopped = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await stopped;
    child = undefined;
  }, 180_000);
});
