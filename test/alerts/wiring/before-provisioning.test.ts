import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../src/runtime/build-runtime';
import { directoryRefs } from '../../../src/sandbox/seed/directory-refs';
import { sqliteStorePath } from '../../../src/store';
import { startPair, type Pair } from '../../../src/testing';
import { firingAlert, postAlert } from './alert-requests';

/** The runtime that replaced `before`, once it listens (its provisioning may still be running). */
async function listeningSuccessor(pair: Pair, before: Runtime): Promise<Runtime> {
  const found = await pair.platform.waitFor(
    async () => (pair.runtime !== before && pair.runtime.inspect().url ? pair.runtime : undefined),
    (r) => r !== undefined,
  );
  return found!;
}

// Issue #12, defect 6: alerts accepted before provisioning finished were posted as the token's user
// ("Sandra Admin") instead of the Alerts bot user.
describe('alerts accepted before the first provisioning finished', () => {
  let pair: Pair;
  let restarted: Promise<Runtime> | undefined;

  beforeAll(async () => {
    pair = await startPair({ bots: ['alerts'] });
  });
  afterAll(async () => {
    await pair?.platform.settings({ rate_limit_per_minute: 6000 }).catch(() => undefined);
    await pair?.platform.advance(120).catch(() => undefined);
    await restarted?.catch(() => undefined);
    await pair?.close();
  });

  it('are answered at once, held, and posted as the Alerts bot user once provisioning has finished', async () => {
    const before = pair.runtime;
    const dataDir = before.inspect().config.data_dir;
    // a first start: no store (no bot user, wall or webhook known), and a platform granting 2 requests a minute
    restarted = pair.restartRuntime(async () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${sqliteStorePath(dataDir)}${suffix}`, { force: true });
      await pair.platform.settings({ rate_limit_per_minute: 2 });
    });
    const runtime = await listeningSuccessor(pair, before);

    const wallOnly = await postAlert(pair, firingAlert('EarlyWarning'));
    const critical = await postAlert(pair, firingAlert('EarlyOutage', 'critical'));
    expect([wallOnly.status, critical.status]).toEqual([202, 202]);
    // 1 message for the wall, then 2 (the on-call chat and the wall)
    expect([await wallOnly.json(), await critical.json()]).toEqual([
      { accepted: 1, queued: 1 },
      { accepted: 1, queued: 2 },
    ]);
    expect((await fetch(`${runtime.inspect().url}/readyz`)).status).toBe(503);
    const held = await runtime.inspect().store.outbox.list({ state: 'live' });
    // the entries name the bot and the wall: nothing about them was known yet
    expect(held.map((e) => (e.payload as { entry: Record<string, unknown> }).entry).filter((e) => e.kind === 'post')).toEqual([
      expect.objectContaining({ bot: 'alerts', wallName: 'Operations' }),
      expect.objectContaining({ bot: 'alerts', wallName: 'Operations' }),
    ]);

    await pair.platform.settings({ rate_limit_per_minute: 6000 });
    await pair.platform.advance(61);
    await restarted;
    const botUserId = runtime.inspect().provisionResults[0]?.bots.alerts?.botUserId;
    expect(botUserId).toBeGreaterThan(0);
    const opsWall = directoryRefs(pair.sandbox.ctx)!.department_walls.Operations!;
    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(opsWall),
      (p) => ['EarlyWarning', 'EarlyOutage'].every((name) => p.some((x) => x.body?.includes(name))),
      15_000,
    );
    for (const name of ['EarlyWarning', 'EarlyOutage']) {
      expect(posts.find((p) => p.body?.includes(name))?.author).toMatchObject({ id: botUserId, name: 'Alerts' });
    }
    await pair.platform.waitFor(
      () => pair.platform.messages({ kind: 'chat' }),
      (m) => m.some((x) => String(x.text).includes('EarlyOutage')),
      15_000,
    );
    expect(await runtime.inspect().store.outbox.list({ state: 'dead' })).toEqual([]);
  });
});
