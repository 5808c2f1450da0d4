import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { SandboxControl } from '../../src/testing';

/** The runtime mounted on an app of the test's own, whose log lines the test reads (JSON). */
describe("a handler's ctx.log", () => {
  const lines: Record<string, unknown>[] = [];
  let sandbox: Sandbox;
  let runtime: Runtime;
  let dataDir: string;

  beforeAll(async () => {
    const clock = new AdjustableClock();
    sandbox = await createSandbox({ clock, port: 0, seed: 'demo' });
    dataDir = mkdtempSync(join(tmpdir(), 'intrabot-handler-log-'));
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream } });
    const env = {
      INTRABOT_PORT: '0',
      INTRABOT_SANDBOX_PORT: new URL(sandbox.baseUrl).port,
      INTRABOT_DATA_DIR: dataDir,
      INTRABOT_BOTS_DIR: resolve('test/fixtures/bots'),
      INTRABOT_REDIS_URL: '',
    };
    runtime = await buildRuntime({ config: loadConfig({ env, cwd: dataDir }), clock, env, app, only: ['echo'] });
    await app.listen({ host: '127.0.0.1', port: 0 });
    await runtime.activate();
  });
  afterAll(async () => {
    await runtime?.close();
    await runtime?.app.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is bound to the bot, the tenant and the delivery id', async () => {
    const platform = new SandboxControl(sandbox.baseUrl);
    const refs = directoryRefs(sandbox.ctx)!;
    const post = await platform.employeePost(refs.employee_ids[1]!, { wall_id: refs.company_wall_id, body: 'log this' });
    await platform.waitFor(
      () => platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    const [delivery] = await platform.deliveries({ event: 'service.post.created' });
    const deliveryId = (JSON.parse(String(delivery!.body)) as { id: string }).id;
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'echoing', bot: 'echo', tenant: 'sandbox', delivery: deliveryId, level: 30 }));
  });
});
