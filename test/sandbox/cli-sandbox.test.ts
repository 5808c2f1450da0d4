import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/errors';
import { parseSandboxArgs, runSandboxCommand } from '../../src/cli/commands/sandbox';
import type { Sandbox } from '../../src/sandbox/sandbox';

/** Runs `intrabot sandbox` until `stop()`; resolves `ready` with the listening sandbox. */
function start(args: string[]) {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  let out = '';
  let err = '';
  let onReady!: (s: Sandbox) => void;
  const ready = new Promise<Sandbox>((resolve) => (onReady = resolve));
  const exit = runSandboxCommand(args, { env: {}, stdout: (t) => (out += t), stderr: (t) => (err += t), stopped, onReady });
  return {
    ready,
    stop: async () => {
      stop();
      return exit;
    },
    output: () => out,
    errors: () => err,
    exit,
  };
}

async function call(sandbox: Sandbox, method: string, path: string, body?: unknown) {
  return fetch(`${sandbox.baseUrl}/api/open/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

describe('intrabot sandbox', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('reads --port, --data, --seed and --users, with the port from the environment by default', () => {
    expect(parseSandboxArgs([], {})).toEqual({ port: 4010, seed: 'demo' });
    expect(parseSandboxArgs([], { INTRABOT_SANDBOX_PORT: '4555' }).port).toBe(4555);
    expect(parseSandboxArgs(['--port', '0', '--data', 'x.db', '--seed', 'large', '--users', '500'], {})).toEqual({
      port: 0,
      data: 'x.db',
      seed: 'large',
      users: 500,
    });
    expect(() => parseSandboxArgs(['--seed', 'huge'], {})).toThrow(InvalidInputError);
    expect(() => parseSandboxArgs(['--port', 'abc'], {})).toThrow(/port/);
  });

  it('answers a usage error with exit code 2', async () => {
    let err = '';
    const code = await runSandboxCommand(['--seed', 'huge'], { env: {}, stdout: () => undefined, stderr: (t) => (err += t), stopped: Promise.resolve() });
    expect(code).toBe(2);
    expect(err).toContain('seed');
  });

  it('serves the platform over real HTTP and prints the base URL and token', async () => {
    const run = start(['--port', '0']);
    const sandbox = await run.ready;
    expect(run.output()).toContain(sandbox.baseUrl);
    expect(run.output()).toContain('svc_sandbox_token');
    expect(run.output()).toContain('in memory');
    const res = await call(sandbox, 'GET', '/users?per_page=5');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    const body = (await res.json()) as { data: unknown[]; links: { next: string } };
    expect(body.data).toHaveLength(5);
    expect(body.links.next.startsWith(sandbox.baseUrl)).toBe(true);
    expect(await run.stop()).toBe(0);
    await expect(fetch(`${sandbox.baseUrl}/_sandbox/clock`)).rejects.toThrow();
  });

  it('keeps a post across a restart with the same --data file (state kept across restarts)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intrabot-sandbox-'));
    dirs.push(dir);
    const file = join(dir, 'sandbox.db');
    const first = start(['--port', '0', '--data', file]);
    const a = await first.ready;
    const walls = (await (await call(a, 'GET', '/walls')).json()) as { data: { id: number }[] };
    const wallId = walls.data[0]?.id as number;
    const created = (await (await call(a, 'POST', `/walls/${wallId}/posts`, { body: 'Survives restarts' })).json()) as { data: { id: number } };
    expect(await first.stop()).toBe(0);

    const second = start(['--port', '0', '--data', file, '--seed', 'empty']);
    const b = await second.ready;
    expect(second.output()).toContain(`kept in ${file}`);
    const res = await call(b, 'GET', `/walls/${wallId}/posts/${created.data.id}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { body: string } }).data.body).toBe('Survives restarts');
    expect(await second.stop()).toBe(0);
  });
});
