// Issue #24, item 3: `/livez` is Kubernetes' liveness probe: 200 while the process answers, whatever the
// store and the platform do, so that an outage or a start-up waiting on the platform's rate budget
// takes the runtime out of the load balancer (/readyz 503) but never has it restarted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { openStore } from '../../src/store';
import { startPair, type Pair } from '../../src/testing';
import { sqliteOutage } from '../helpers/store-outage';

describe('/livez while the runtime is not started yet', () => {
  let sandbox: Sandbox;
  let dataDir: string;
  let runtime: Runtime;

  beforeAll(async () => {
    sandbox = await createSandbox({ clock: new AdjustableClock(), port: 0, seed: 'empty' });
    dataDir = mkdtempSync(join(tmpdir(), 'intrabot-livez-'));
    const env = {
      INTRABOT_BASE_URL: sandbox.baseUrl,
      INTRABOT_TOKEN: sandbox.token,
      INTRABOT_SECRET_KEY: 'livez-test-key-of-some-length',
      INTRABOT_DATA_DIR: dataDir,
      INTRABOT_BOTS_DIR: resolve('test/fixtures/bots'),
      INTRABOT_LOG_LEVEL: 'silent',
      INTRABOT_REDIS_URL: '',
      INTRABOT_PORT: '0',
    };
    runtime = await buildRuntime({ config: loadConfig({ env, cwd: dataDir }), clock: new AdjustableClock(), env, only: ['echo'] });
  });
  afterAll(async () => {
    await runtime?.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 200 while /readyz still says starting', async () => {
    const live = await runtime.app.inject({ method: 'GET', url: '/livez' });
    expect([live.statusCode, live.json()]).toEqual([200, { ok: true }]);
    const ready = await runtime.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ reason: 'starting' });
  });
});

describe('/livez during a store outage', () => {
  let pair: Pair;
  let dir: string;
  let outage: ReturnType<typeof sqliteOutage>;

  beforeAll(async () => {
    const clock = new AdjustableClock();
    dir = mkdtempSync(join(tmpdir(), 'intrabot-livez-store-'));
    outage = sqliteOutage(await openStore({ kind: 'sqlite', path: join(dir, 'intrabot.db') }, { clock, secretKey: 'livez-test-key' }));
    pair = await startPair({ botsDir: resolve('test/fixtures/pause-bots'), bots: ['pausable'], store: outage.store });
  });
  afterAll(async () => {
    outage.down = false;
    await pair?.close();
    await outage?.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 200 over HTTP, reading no store, while /readyz answers 503 store_unavailable', async () => {
    const url = pair.runtime.inspect().url!;
    outage.down = true;
    const live = await fetch(`${url}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ ok: true });
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ reason: 'store_unavailable' });
    outage.down = false;
  });
});
