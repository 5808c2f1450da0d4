// Pausing a bot across replicas (issue #17): two runtimes sharing one Redis store; a pause asked of one
// is held by the other within a second, and a resume asked of the other hands everything back once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { runtimePartsOf } from '../../src/runtime/runtime-parts';
import { openStore, type Store } from '../../src/store';
import { HELD_NOTE } from '../../src/store/paused-bots';
import { startPair, type Pair } from '../../src/testing';
import { deleteRedisPrefix, redisTestUrl, REDIS_SKIP_REASON, uniqueRedisPrefix } from '../helpers/redis';
import { postCreatedEnvelope } from '../helpers/deliveries';

const REDIS = redisTestUrl();
const BOTS = resolve('test/fixtures/pause-bots');
const SECRET_KEY = 'pause-replicas-test-key';

describe.skipIf(!REDIS)(`pausing a bot on one of two replicas sharing Redis${REDIS ? '' : ` (${REDIS_SKIP_REASON})`}`, () => {
  const prefix = uniqueRedisPrefix('pause');
  const dataDir = mkdtempSync(join(tmpdir(), 'intrabot-pause-replica-'));
  let clock: AdjustableClock;
  let storeA: Store;
  let storeB: Store;
  let pair: Pair;
  let replicaB: Runtime;

  beforeAll(async () => {
    clock = new AdjustableClock();
    storeA = await openStore({ kind: 'redis', url: REDIS!, prefix }, { clock, secretKey: SECRET_KEY });
    storeB = await openStore({ kind: 'redis', url: REDIS!, prefix }, { clock, secretKey: SECRET_KEY });
    // the stores judge leases and claims on their clock: the pair runs on the same one
    pair = await startPair({ botsDir: BOTS, clock, store: storeA });
    // a second replica of the same runtime: same platform, same bots, same store, its own port
    const env = {
      INTRABOT_PORT: '0',
      INTRABOT_SANDBOX_PORT: new URL(pair.sandbox.baseUrl).port,
      INTRABOT_DATA_DIR: dataDir,
      INTRABOT_BOTS_DIR: BOTS,
      INTRABOT_LOG_LEVEL: 'silent',
      INTRABOT_BOTS: '',
    };
    replicaB = await buildRuntime({ config: loadConfig({ env, cwd: dataDir }), clock: pair.clock, env, store: storeB, pollMs: 100 });
    await replicaB.start();
  }, 60_000);
  afterAll(async () => {
    await replicaB?.close();
    await pair?.close();
    await storeA?.close();
    await storeB?.close();
    if (REDIS) await deleteRedisPrefix(REDIS, prefix);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = async (runtime: Runtime, verb: 'pause' | 'resume', body: unknown = {}): Promise<Record<string, unknown>> => {
    const res = await fetch(`${runtime.inspect().url}/_admin/bots/pausable/${verb}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };
  const pausedOn = (runtime: Runtime) => () => runtimePartsOf(runtime).delivery.paused.isPaused('sandbox', 'pausable');

  it("is seen by the other replica within a second, which holds the bot's deliveries until a resume there hands them back once", async () => {
    await post(pair.runtime, 'pause', { reason: 'replica test' });
    const asked = performance.now();
    await pair.platform.waitFor(pausedOn(replicaB), (paused) => paused, 1_000);
    expect(performance.now() - asked).toBeLessThan(1_000);

    // a delivery recorded by the other replica is held there (or by the first: they share the inbox)
    const refs = await pair.refs();
    const { duplicate } = await replicaB.receive({
      tenant: 'sandbox',
      bot: 'pausable',
      deliveryId: 'pause-replica-delivery',
      envelope: postCreatedEnvelope(
        pair.clock,
        {
          id: 999_001,
          body: 'across replicas',
          wall_id: refs.company_wall_id,
          author: { id: refs.employee_ids[0]!, name: 'An Employee', email: 'employee@example.com' },
        },
        'pause-replica-delivery',
      ),
    });
    expect(duplicate).toBe(false);
    const held = () => storeB.inbox.list({ limit: 1_000 }).then((entries) => entries.filter((e) => e.payload.bot === 'pausable' && e.lastError === HELD_NOTE));
    await pair.platform.waitFor(held, (entries) => entries.length === 1);

    const resumed = await post(replicaB, 'resume');
    expect(resumed).toMatchObject({ resumed: true, released: 1 });
    const resumedAt = performance.now();
    await pair.platform.waitFor(pausedOn(pair.runtime), (paused) => !paused, 1_000);
    expect(performance.now() - resumedAt).toBeLessThan(1_000);
    await pair.platform.waitFor(
      () => storeA.inbox.list({ limit: 1_000 }),
      (entries) => entries.every((e) => e.payload.bot !== 'pausable'),
    );
    const handled = await runtimePartsOf(pair.runtime).inbox.deliveryLog.recent(100);
    expect(handled.filter((h) => h.deliveryId === 'pause-replica-delivery')).toHaveLength(1);
  });
});
