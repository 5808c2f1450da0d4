import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { loadConfig } from '../../src/runtime/config/config';
import { intrabotPlugin } from '../../src/runtime/plugin';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { SandboxControl } from '../../src/testing/sandbox-control';

describe('intrabot as a Fastify plugin of an existing app', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'intrabot-plugin-'));
  let sandbox: Sandbox;
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    const clock = new AdjustableClock();
    sandbox = await createSandbox({ clock, port: 0 });
    app = Fastify();
    app.setErrorHandler((_error, _request, reply) => reply.code(418).send({ host: 'error handler' }));
    app.get('/hello', async () => ({ hello: 'from the host' }));
    app.get('/boom', async () => {
      throw new Error('host route failed');
    });
    const env = {
      INTRABOT_SANDBOX_PORT: new URL(sandbox.baseUrl).port,
      INTRABOT_DATA_DIR: dataDir,
      INTRABOT_BOTS_DIR: resolve('bots'),
      INTRABOT_LOG_LEVEL: 'silent',
    };
    const config = loadConfig({ env, cwd: dataDir });
    await app.register(intrabotPlugin, { config, clock, env: { ...process.env, ...env, INTRABOT_REDIS_URL: '' }, only: ['ops'], pollMs: 100 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    await new SandboxControl(sandbox.baseUrl).waitFor(
      () => fetch(`${url}/readyz`).then((r) => r.ok),
      (ok) => ok,
    );
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves the runtime's routes beside the host's own, leaving the host's error handler alone", async () => {
    expect(await (await fetch(`${url}/hello`)).json()).toEqual({ hello: 'from the host' });
    expect((await fetch(`${url}/boom`)).status).toBe(418);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(app.intrabot.inspect().bots.map((b) => b.name)).toEqual(['ops']);
  });

  it('provisions the bots once the host listens and answers their events', async () => {
    const platform = new SandboxControl(sandbox.baseUrl);
    const refs = directoryRefs(sandbox.ctx)!;
    const post = await platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: '/oncall' });
    const comments = await platform.waitFor(
      () => platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    expect(comments[0]?.body).toBe('On call: Ada Lovelace');
  });
});
