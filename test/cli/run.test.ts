import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRun } from '../../src/cli/commands/run';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { SandboxControl, startPair, type Pair } from '../../src/testing';
import { captureIo, FIXTURE_BOTS, freePort, pairEnv } from './cli-io';

describe('intrabot run, through the running runtime', () => {
  let pair: Pair;
  let wall: number;

  beforeAll(async () => {
    pair = await startPair({ bots: ['chores'], botsDir: FIXTURE_BOTS });
    wall = directoryRefs(pair.sandbox.ctx)!.company_wall_id;
  });
  afterAll(async () => pair?.close());

  it('runs a scheduled job now through the admin route and its post reaches the wall', async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runRun(['chores', 'remind'], io)).toBe(0);
    expect(io.out).toContain('through the running runtime');
    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(wall),
      (p) => p.some((x) => String(x.body).startsWith('Chores are due (slot')),
    );
    expect(posts.length).toBeGreaterThan(0);
  });

  it('runs a job that no schedule names through the admin route too', async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runRun(['chores', 'adhoc'], io)).toBe(0);
    await pair.platform.waitFor(
      () => pair.platform.wallPosts(wall),
      (p) => p.some((x) => x.body === 'Chores are due, on demand'),
    );
  });

  it('exits 1 with the reason when the job throws or does not exist', async () => {
    const broken = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runRun(['chores', 'broken'], broken)).toBe(1);
    const missing = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runRun(['chores', 'nope'], missing)).toBe(1);
    expect(missing.err).toContain('no job "nope"');
    const typo = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runRun(['chores', 'remnid'], typo)).toBe(1);
    expect(typo.err).toContain('no job "remnid" (did you mean "remind"?)');
  });

  it("names the job as unknown for a known bot, listing the bot's jobs", async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runRun(['chores', 'remnid'], io)).toBe(1);
    expect(io.err).toBe('intrabot run: bot "chores" on tenant "sandbox" has no job "remnid" (did you mean "remind"?); its jobs are: adhoc, broken, remind\n');
  });

  it('names the bot as unknown, with the closest name and the bots deployed there, rather than its job', async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runRun(['chors', 'remind'], io)).toBe(1);
    expect(io.err).toBe('intrabot run: no bot named "chors" (did you mean "chores"?); the bots deployed to tenant "sandbox" are: chores\n');
  });

  it('exits 2 on a missing argument or an unknown tenant', async () => {
    expect(await runRun(['chores'], captureIo(pairEnv(pair, FIXTURE_BOTS)))).toBe(2);
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runRun(['chores', 'remind', '--tenant', 'acme'], io)).toBe(2);
    expect(io.err).toContain('no tenant "acme"');
  });
});

describe('intrabot run, in-process when no runtime is up', () => {
  let sandbox: Sandbox;
  let platform: SandboxControl;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await createSandbox({ port: 0, seed: 'demo' });
    platform = new SandboxControl(sandbox.baseUrl);
    dataDir = mkdtempSync(join(tmpdir(), 'intrabot-cli-run-'));
    env = {
      INTRABOT_PORT: String(await freePort()),
      INTRABOT_SANDBOX_PORT: new URL(sandbox.baseUrl).port,
      INTRABOT_DATA_DIR: dataDir,
      INTRABOT_BOTS_DIR: FIXTURE_BOTS,
      INTRABOT_LOG_LEVEL: 'silent',
    };
  });
  afterAll(async () => {
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('provisions, runs the job and delivers its post through the outbox before exiting', async () => {
    const io = captureIo(env);
    expect(await runRun(['chores', 'adhoc'], io)).toBe(0);
    expect(io.out).toContain('in-process');
    // the job's ctx.progress, as the progress line's updates (one plain line each off a terminal)
    expect(io.out).toContain('running chores/adhoc...\n  counting the chores\n');
    expect(io.out).toContain('1 of 1 message(s) delivered');
    const posts = await platform.wallPosts(directoryRefs(sandbox.ctx)!.company_wall_id);
    expect(posts.map((p) => p.body)).toContain('Chores are due, on demand');
  });

  it('exits 1 when the job throws', async () => {
    const io = captureIo(env);
    expect(await runRun(['chores', 'broken'], io)).toBe(1);
    expect(io.err).toContain('the chores list is unreadable');
  });

  it('exits 1 with the fix when no sandbox is running in sandbox mode', async () => {
    const io = captureIo({ ...env, INTRABOT_SANDBOX_PORT: String(await freePort()) });
    expect(await runRun(['chores', 'adhoc'], io)).toBe(1);
    expect(io.err).toContain('intrabot sandbox');
  });
});

describe('intrabot run, when the runtime refuses the admin call', () => {
  async function refusingRuntime(status: number, body: Record<string, string>): Promise<{ port: string; close: () => Promise<void> }> {
    const app = Fastify();
    app.post('/_admin/jobs/:tenant/:bot/:job/run', async (_request, reply) => reply.code(status).send(body));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { port: String((app.server.address() as { port: number }).port), close: () => app.close() };
  }

  // issue #15, item 4: the admin-token error said its sentence twice
  it.each([
    [401, { error: 'unauthorized', message: 'missing or wrong admin token' }, /refused the admin token: set INTRABOT_ADMIN_TOKEN to the runtime's admin token/],
    [
      403,
      { error: 'forbidden', message: 'admin routes are off: set INTRABOT_ADMIN_TOKEN to use them' },
      /admin routes are off: start the runtime with INTRABOT_ADMIN_TOKEN/,
    ],
  ])('exits 1 on a %i and names INTRABOT_ADMIN_TOKEN once, with the fix', async (status, body, fix) => {
    const runtime = await refusingRuntime(status, body);
    try {
      const io = captureIo({ INTRABOT_PORT: runtime.port, INTRABOT_BOTS_DIR: FIXTURE_BOTS });
      expect(await runRun(['chores', 'remind'], io)).toBe(1);
      expect(io.err).toMatch(fix);
      expect(io.err.split('INTRABOT_ADMIN_TOKEN').length - 1).toBe(1);
    } finally {
      await runtime.close();
    }
  });
});
