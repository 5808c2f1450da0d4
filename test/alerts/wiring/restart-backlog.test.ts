import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../src/runtime/build-runtime';
import { directoryRefs } from '../../../src/sandbox/seed/directory-refs';
import { startPair, type Pair } from '../../../src/testing';
import { firingAlert, postAlert } from './alert-requests';

// Issue #12, defect 5: after a restart with a backlog of alerts, a new alert's 202 waited for the wall
// name to be listed again under the spent rate budget (32-48 s; monitoring tools give up after 10-30 s).
describe('a new alert after a restart with a backlog', () => {
  let pair: Pair;
  let opsWall: number;
  let restarted: Promise<Runtime> | undefined;

  beforeAll(async () => {
    pair = await startPair({ bots: ['alerts'] });
    opsWall = directoryRefs(pair.sandbox.ctx)!.department_walls.Operations!;
  });
  afterAll(async () => {
    pair?.clock.resume();
    await pair?.platform.settings({ rate_limit_per_minute: 6000 }).catch(() => undefined);
    await pair?.platform.advance(120).catch(() => undefined);
    await restarted?.catch(() => undefined);
    await pair?.close();
  });

  it('answers a new alert 202 without waiting for the spent rate budget (the clock stands still), and posts it as the Alerts bot once provisioned', async () => {
    // from here the platform grants the token 2 requests a minute (spec: Limits): the backlog stays queued
    await pair.platform.settings({ rate_limit_per_minute: 2 });
    for (let i = 0; i < 200; i += 1) expect((await postAlert(pair, firingAlert(`Backlog${i}`))).status).toBe(202);
    // nearly all of them still wait in the outbox (as entries, or merged into a digest)
    expect((await pair.platform.wallPosts(opsWall)).filter((p) => p.body?.includes('Backlog')).length).toBeLessThan(5);
    expect((await pair.runtime.inspect().store.outbox.list({ state: 'live', limit: 1_000 })).length).toBeGreaterThan(0);

    const before = pair.runtime;
    restarted = pair.restartRuntime();
    const runtime = await pair.platform.waitFor(
      async () => (pair.runtime !== before && pair.runtime.inspect().url ? pair.runtime : undefined),
      (r) => r !== undefined,
    );

    // Acceptance: "a new alert's 202 within 1 s", on the injected clock. Frozen, the clock cannot reach any
    // slot of the spent budget (nor any other wait on it), so an answer at all proves none was waited for
    // (a 202 that waited would never come: the test times out); the clock reads the same before and after
    pair.clock.freeze();
    const frozenAt = pair.clock.now();
    const answer = await postAlert(pair, firingAlert('AfterRestart'));
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ accepted: 1, queued: 1 });
    expect(pair.clock.now()).toBe(frozenAt);
    // the budget is spent until the clock moves: provisioning still waits for it, the 202 did not
    const ready = await fetch(`${runtime!.inspect().url}/readyz`);
    expect(ready.status).toBe(503);
    expect(runtime!.inspect().provisionResults).toEqual([]);
    pair.clock.resume();

    await pair.platform.settings({ rate_limit_per_minute: 6000 });
    await pair.platform.advance(61);
    await restarted;
    const botUserId = runtime!.inspect().provisionResults[0]?.bots.alerts?.botUserId;
    expect(botUserId).toBeGreaterThan(0);
    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(opsWall),
      (p) => p.some((x) => x.body?.includes('AfterRestart')),
      15_000,
    );
    const post = posts.find((p) => p.body?.includes('AfterRestart'))!;
    expect(post.author).toMatchObject({ id: botUserId, name: 'Alerts' });
  });
});
