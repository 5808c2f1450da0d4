import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import type { Logger } from '../../src/log';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { describeProvisioning, LOGGED_WAIT_MS, ProvisioningProgress, QUIET_START_MS } from '../../src/runtime/start/provisioning-progress';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { SandboxControl } from '../../src/testing';

/** A logger that keeps the info lines' messages. */
function infoLines(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: (_fields, message) => lines.push(message),
    warn: () => undefined,
    error: () => undefined,
    child: () => logger,
  };
  return { logger, lines };
}

// issue #24, item 1: start-up waited on the rate budget without a word
describe('provisioning progress', () => {
  it('logs a long wait for budget and each bot done after it, but not the usual second between requests', () => {
    const clock = new AdjustableClock({ frozen: true });
    const { logger, lines } = infoLines();
    const progress = new ProvisioningProgress(clock, logger);
    progress.begin(20);
    for (const bot of ['a', 'b']) progress.botDone(bot);
    progress.budgetWait(1_017);
    progress.budgetWait(40_000);
    progress.botDone('c');
    expect(lines).toEqual(['provisioning 2/20 bots, waiting 40 s for the rate budget', 'provisioning 3/20 bots']);
    expect(LOGGED_WAIT_MS).toBeGreaterThan(1_017);
  });

  it('keeps a quick start quiet at info (its banner comes first), and logs each bot done once it is slow', () => {
    const clock = new AdjustableClock({ frozen: true });
    const { logger, lines } = infoLines();
    const progress = new ProvisioningProgress(clock, logger);
    progress.begin(3);
    progress.botDone('a');
    clock.advance(QUIET_START_MS);
    progress.botDone('b');
    progress.botDone('c');
    expect(lines).toEqual(['provisioning 2/3 bots', 'provisioning 3/3 bots']);
  });

  it('counts down the wait on the clock, and drops it once the wait is over or a bot is done', () => {
    const clock = new AdjustableClock({ frozen: true });
    const progress = new ProvisioningProgress(clock, infoLines().logger);
    progress.begin(3);
    progress.budgetWait(40_000);
    expect(progress.snapshot()).toEqual({ done: 0, total: 3, waiting_s: 40 });
    clock.advance(15_500);
    expect(progress.snapshot()).toEqual({ done: 0, total: 3, waiting_s: 25 });
    clock.advance(25_000);
    expect(progress.snapshot()).toEqual({ done: 0, total: 3 });
    progress.budgetWait(9_000);
    progress.botDone('a');
    expect(progress.snapshot()).toEqual({ done: 1, total: 3 });
  });

  it('says nothing outside a run: a wait of the outbox once started is not provisioning', () => {
    const { logger, lines } = infoLines();
    const progress = new ProvisioningProgress(new AdjustableClock({ frozen: true }), logger);
    progress.budgetWait(30_000);
    progress.begin(1);
    progress.end();
    progress.budgetWait(30_000);
    expect(progress.snapshot()).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it('reads as one line', () => {
    expect(describeProvisioning({ done: 12, total: 20, waiting_s: 40 })).toBe('provisioning 12/20 bots, waiting 40 s for the rate budget');
    expect(describeProvisioning({ done: 3, total: 20 })).toBe('provisioning 3/20 bots');
  });
});

const ADMIN = 'progress-admin-token-0123456789';

// spec: Limits (60 requests per minute per token): lowered here to 3, so start-up must wait for budget
describe('/readyz while start-up provisioning waits for the rate budget', () => {
  let tmp: string;
  let clock: AdjustableClock;
  let sandbox: Sandbox;
  let platform: SandboxControl;
  let runtime: Runtime;
  let started: Promise<string>;
  let info: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'intrabot-progress-'));
    clock = new AdjustableClock();
    sandbox = await createSandbox({ clock, port: 0 });
    platform = new SandboxControl(sandbox.baseUrl);
    await platform.settings({ rate_limit_per_minute: 3 });
    const env = {
      INTRABOT_BASE_URL: sandbox.baseUrl,
      INTRABOT_TOKEN: sandbox.token,
      INTRABOT_SECRET_KEY: 'progress-test-key-of-some-length',
      INTRABOT_PORT: '0',
      INTRABOT_DATA_DIR: join(tmp, 'data'),
      INTRABOT_BOTS_DIR: resolve('test/fixtures/bots'),
      INTRABOT_LOG_LEVEL: 'silent',
      INTRABOT_REDIS_URL: '',
      INTRABOT_ADMIN_TOKEN: ADMIN,
    };
    runtime = await buildRuntime({ config: loadConfig({ env, cwd: tmp }), clock, env: {} });
    info = vi.spyOn(runtime.app.log, 'info');
    started = runtime.start();
  });
  afterAll(async () => {
    await platform?.settings({ rate_limit_per_minute: 6000 }).catch(() => undefined);
    clock?.advance(61_000);
    await started?.catch(() => undefined);
    await runtime?.close();
    await sandbox?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const readyz = async (): Promise<{ status: number; body: Record<string, unknown> }> => {
    const url = runtime.inspect().url;
    if (!url) return { status: 0, body: {} };
    const res = await fetch(`${url}/readyz`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('shows the bots done of all and the seconds left of the wait, and logs the wait', async () => {
    const waiting = await platform.waitFor(readyz, (r) => (r.body.provisioning as { waiting_s?: number } | undefined)?.waiting_s !== undefined, 15_000);
    expect(waiting.status).toBe(503);
    expect(waiting.body).toMatchObject({ ok: false, reason: 'starting', provisioning: { done: 0, total: 3, waiting_s: expect.any(Number) } });
    expect(waiting.body.message).toMatch(/^provisioning 0\/3 bots, waiting \d+ s for the rate budget; deliveries are accepted/);
    const logged = info.mock.calls.map((call) => call[1]);
    expect(logged).toContainEqual(expect.stringMatching(/^provisioning 0\/3 bots, waiting \d+ s for the rate budget$/));
  });

  it("puts the same progress in the console's bots view, which its overview shows while starting", async () => {
    const res = await fetch(`${runtime.inspect().url}/console/api/bots`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(res.status).toBe(200);
    const view = (await res.json()) as { provisioning: unknown };
    expect(view.provisioning).toEqual({ done: 0, total: 3, waiting_s: expect.any(Number) });
  });

  it('logs each bot as it is done and answers 200 once provisioning is over', async () => {
    await platform.settings({ rate_limit_per_minute: 6000 });
    // the budget's window passes on the shared clock, as often as the waits already begun need
    const ready = await platform.waitFor(
      async () => {
        clock.advance(61_000);
        return readyz();
      },
      (r) => r.status === 200,
      15_000,
    );
    expect(ready.body).toMatchObject({ ok: true });
    expect(ready.body.provisioning).toBeUndefined();
    const logged = info.mock.calls.map((call) => call[1]);
    for (const n of [1, 2, 3]) expect(logged).toContain(`provisioning ${n}/3 bots`);
    const console = await fetch(`${runtime.inspect().url}/console/api/bots`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(((await console.json()) as { provisioning: unknown }).provisioning).toBeNull();
  });
});
