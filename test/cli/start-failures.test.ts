import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { freePort } from '../../src/testing';
import { FIXTURE_BOTS } from './cli-io';

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `intrabot start` as a process, with only the given settings (no INTRABOT_* from the caller's environment). */
function start(env: Record<string, string>): Promise<Exit> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('INTRABOT_')));
  const child = spawn(process.execPath, ['bin/intrabot.mjs', 'start'], {
    env: { ...clean, INTRABOT_BOTS_DIR: FIXTURE_BOTS, INTRABOT_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // a start that hangs is the bug: the test's own timeout ends it, and the kill below frees the ports
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** Whether anything accepts a connection on the loopback port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The one line `start` prints on a fatal error (after any log lines). */
const errorLines = (exit: Exit): string[] => exit.stderr.split('\n').filter((l) => l.startsWith('intrabot start:'));

/**
 * Issue #15, item 1: every fatal start-up error exits non-zero with one message naming the setting, its
 * value (a secret masked) and what to do, and leaves nothing listening.
 */
describe('intrabot start fails fast and names the fix', { timeout: 60_000 }, () => {
  let tmp: string;
  let sandbox: Sandbox;
  const connected = async (extra: Record<string, string>): Promise<Record<string, string>> => ({
    INTRABOT_BASE_URL: sandbox.baseUrl,
    INTRABOT_TOKEN: sandbox.token,
    INTRABOT_SECRET_KEY: 'start-failures-test-key',
    INTRABOT_DATA_DIR: mkdtempSync(join(tmp, 'data-')),
    INTRABOT_PORT: String(await freePort()),
    ...extra,
  });

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'intrabot-start-failures-'));
    sandbox = await createSandbox({ clock: new AdjustableClock(), port: 0 });
  });
  afterAll(async () => {
    await sandbox?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  describe('a taken port', () => {
    let taken: Server;
    let takenPort: number;
    beforeAll(async () => {
      taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      takenPort = (taken.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

    it('INTRABOT_PORT taken: exits 1 naming INTRABOT_PORT and its value, and the sandbox it started stops listening', async () => {
      const sandboxPort = await freePort();
      const exit = await start({
        INTRABOT_PORT: String(takenPort),
        INTRABOT_SANDBOX_PORT: String(sandboxPort),
        INTRABOT_DATA_DIR: mkdtempSync(join(tmp, 'data-')),
      });
      expect(exit.code, exit.stderr).toBe(1);
      expect(errorLines(exit)).toEqual([expect.stringContaining(`INTRABOT_PORT=${takenPort}: the runtime cannot listen`)]);
      expect(exit.stderr).toContain('set INTRABOT_PORT to a free port');
      expect(await listening(sandboxPort)).toBe(false);
    });

    it('INTRABOT_SANDBOX_PORT taken: exits 1 naming INTRABOT_SANDBOX_PORT, and the runtime never listens', async () => {
      const port = await freePort();
      const exit = await start({ INTRABOT_PORT: String(port), INTRABOT_SANDBOX_PORT: String(takenPort), INTRABOT_DATA_DIR: mkdtempSync(join(tmp, 'data-')) });
      expect(exit.code, exit.stderr).toBe(1);
      expect(errorLines(exit)).toEqual([expect.stringContaining(`INTRABOT_SANDBOX_PORT=${takenPort}: the sandbox cannot listen`)]);
      expect(await listening(port)).toBe(false);
    });
  });

  it('a wrong token (401 from GET /token): exits 1 naming INTRABOT_TOKEN, masked, and stops listening', async () => {
    const env = await connected({ INTRABOT_TOKEN: 'svc_wrongwrongwrong1234', INTRABOT_PUBLIC_URL: 'http://127.0.0.1:1' });
    const exit = await start(env);
    expect(exit.code, exit.stderr).toBe(1);
    expect(errorLines(exit)).toEqual([expect.stringContaining('INTRABOT_TOKEN=svc_…1234')]);
    expect(exit.stderr).toContain('refused the token');
    expect(exit.stderr + exit.stdout).not.toContain('wrongwrongwrong');
    expect(await listening(Number(env.INTRABOT_PORT))).toBe(false);
  });

  it('a platform failing transiently (503): retries, saying what it waits for, then exits 1 naming INTRABOT_BASE_URL within INTRABOT_START_WAIT', async () => {
    const faults = `${sandbox.baseUrl}/_sandbox/faults`;
    await fetch(faults, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/api/open/v1/token', status: 503, count: 1000 }),
    });
    try {
      const env = await connected({ INTRABOT_PUBLIC_URL: 'http://127.0.0.1:1', INTRABOT_START_WAIT: '8' });
      const exit = await start(env);
      expect(exit.code, exit.stderr).toBe(1);
      expect(exit.stdout).toContain(`waiting for the platform at ${sandbox.baseUrl}`);
      expect(errorLines(exit)).toEqual([expect.stringContaining(`INTRABOT_BASE_URL=${sandbox.baseUrl}: the platform did not answer usably`)]);
      expect(exit.stderr).toContain('INTRABOT_START_WAIT');
      expect(await listening(Number(env.INTRABOT_PORT))).toBe(false);
    } finally {
      await fetch(faults, { method: 'DELETE' });
    }
  });

  // issue #24, item 2: a wrong base URL was retried for a minute (24 warnings) before it was named
  it('a base URL where nothing listens, on the first start against the tenant: exits 1 at once naming the tenant and the URL, with no retries', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const env = await connected({ INTRABOT_BASE_URL: down, INTRABOT_TOKEN: 'svc_refusedrefused5678', INTRABOT_PUBLIC_URL: 'http://127.0.0.1:1' });
    const began = performance.now();
    const exit = await start(env);
    // INTRABOT_START_WAIT is its default, 60 s: a retry would show as "waiting for" and seconds more
    expect(performance.now() - began).toBeLessThan(40_000);
    expect(exit.code, exit.stderr).toBe(1);
    expect(exit.stdout + exit.stderr).not.toContain('waiting for');
    expect(errorLines(exit)).toEqual([
      expect.stringContaining(`INTRABOT_BASE_URL=${down} (tenant default): cannot reach the platform: nothing accepts connections there (ECONNREFUSED)`),
    ]);
    expect(exit.stderr).toContain('is the URL right');
    expect(exit.stderr).toContain('is the platform reachable from here');
    expect(exit.stderr + exit.stdout).not.toContain('refusedrefused');
    expect(await listening(Number(env.INTRABOT_PORT))).toBe(false);
  });

  it('several missing settings: exits 1 listing each in one message (issue #24)', async () => {
    const exit = await start({ INTRABOT_BASE_URL: 'https://acme.example.com', INTRABOT_TOKEN: 'svc_abc', INTRABOT_DATA_DIR: mkdtempSync(join(tmp, 'data-')) });
    expect(exit.code, exit.stderr).toBe(1);
    expect(errorLines(exit)).toEqual(['intrabot start: 2 settings need fixing:']);
    expect(exit.stderr).toContain('  - INTRABOT_SECRET_KEY is required in connected mode');
    expect(exit.stderr).toContain('  - INTRABOT_PUBLIC_URL is required in connected mode');
  });

  it('a public URL that is not https: exits 1 naming INTRABOT_PUBLIC_URL before provisioning anything', async () => {
    const env = await connected({ INTRABOT_PUBLIC_URL: 'http://bots.example.com' });
    const exit = await start(env);
    expect(exit.code, exit.stderr).toBe(1);
    expect(errorLines(exit)).toEqual([expect.stringContaining('INTRABOT_PUBLIC_URL=http://bots.example.com: the platform accepts only https')]);
    expect(await listening(Number(env.INTRABOT_PORT))).toBe(false);
  });

  it('no public URL in connected mode: exits 1 naming INTRABOT_PUBLIC_URL, as `provision` does', async () => {
    const env = await connected({});
    const exit = await start(env);
    expect(exit.code, exit.stderr).toBe(1);
    expect(errorLines(exit)).toEqual([expect.stringContaining('INTRABOT_PUBLIC_URL is required in connected mode')]);
    expect(await listening(Number(env.INTRABOT_PORT))).toBe(false);
  });
});
