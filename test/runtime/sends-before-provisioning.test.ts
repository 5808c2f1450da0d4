import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/runtime/build-runtime';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { sqliteStorePath } from '../../src/store';
import { startPair, type Pair } from '../../src/testing';

// Issue #12, defect 6 beyond alerts: a job run on demand while the first provisioning was still running
// posted as the token's user, and its direct message failed (no bot user yet).
describe('what a job sends before the first provisioning finished', () => {
  let pair: Pair;
  let restarted: Promise<Runtime> | undefined;

  beforeAll(async () => {
    pair = await startPair({ botsDir: 'test/fixtures/bots-early' });
  });
  afterAll(async () => {
    await pair?.platform.settings({ rate_limit_per_minute: 6000 }).catch(() => undefined);
    await pair?.platform.advance(120).catch(() => undefined);
    await restarted?.catch(() => undefined);
    await pair?.close();
  });

  it('is queued at once and sent as the bot user once provisioning has made it known', async () => {
    const before = pair.runtime;
    const dataDir = before.inspect().config.data_dir;
    restarted = pair.restartRuntime(async () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${sqliteStorePath(dataDir)}${suffix}`, { force: true });
      await pair.platform.settings({ rate_limit_per_minute: 2 });
    });
    const runtime = (await pair.platform.waitFor(
      async () => (pair.runtime !== before && pair.runtime.inspect().url ? pair.runtime : undefined),
      (r) => r !== undefined,
    ))!;

    const run = await fetch(`${runtime.inspect().url}/_admin/jobs/sandbox/notice/announce/run`, { method: 'POST' });
    expect(run.status).toBe(200);
    expect(await run.json()).toMatchObject({ ok: true, run: { outcome: 'ok' } });
    expect(runtime.inspect().provisionResults).toEqual([]);

    await pair.platform.settings({ rate_limit_per_minute: 6000 });
    await pair.platform.advance(61);
    await restarted;
    const botUserId = runtime.inspect().provisionResults[0]?.bots.notice?.botUserId;
    expect(botUserId).toBeGreaterThan(0);
    const opsWall = directoryRefs(pair.sandbox.ctx)!.department_walls.Operations!;
    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(opsWall),
      (p) => p.some((x) => x.body === 'Maintenance tonight at 22:00'),
      15_000,
    );
    expect(posts.find((p) => p.body === 'Maintenance tonight at 22:00')?.author).toMatchObject({ id: botUserId, name: 'Notice Bot' });
    const direct = await pair.platform.waitFor(
      () => pair.platform.messages({ kind: 'direct', user_id: 10 }),
      (m) => m.some((x) => x.text === 'You are on call for the maintenance'),
      15_000,
    );
    expect(direct.find((m) => m.text === 'You are on call for the maintenance')).toMatchObject({ sender: { id: botUserId } });
  });
});
