import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { runDoctor } from '../../src/runtime/operations/doctor';
import { runtimePartsOf } from '../../src/runtime/runtime-parts';
import { startPair, type Pair } from '../../src/testing';

describe('intrabot doctor', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ bots: ['ops'] });
  });
  afterAll(async () => pair?.close());

  const doctor = (clock = pair.clock, config = pair.runtime.inspect().config) =>
    runDoctor({ config, clock, store: pair.runtime.inspect().store, env: process.env, only: ['ops'] });

  it('passes every check on a provisioned runtime, pinging the bot endpoint end to end', async () => {
    const checks = await doctor();
    expect(checks.filter((c) => c.status !== 'ok').map((c) => `${c.name}: ${c.detail}`)).toEqual([]);
    expect(checks).toContainEqual(expect.objectContaining({ name: 'sandbox: webhook of ops', status: 'ok', detail: 'ping delivered' }));
  });

  it("fails clock skew against the platform's Date header, with a fix", async () => {
    const local = new AdjustableClock({ start: pair.clock.now() - 10 * 60_000 });
    const skew = (await doctor(local)).find((c) => c.name === 'sandbox: clock skew');
    expect(skew).toMatchObject({ status: 'fail', fix: expect.stringContaining('NTP') });
  });

  it('names the scopes a bot needs that the token lacks', async () => {
    const { token } = await pair.platform.request<{ token: string }>('POST', '/_sandbox/tokens', { name: 'narrow', scopes: ['read:bots'] });
    const config = { ...pair.runtime.inspect().config, tenants: pair.runtime.inspect().config.tenants.map((t) => ({ ...t, token })) };
    const scopes = (await doctor(pair.clock, config)).find((c) => c.name === 'sandbox: scopes for ops');
    expect(scopes).toMatchObject({ status: 'fail', detail: expect.stringContaining('write:bots') });
  });

  it('fails with a fix when the platform does not answer', async () => {
    const config = { ...pair.runtime.inspect().config, tenants: [{ ...pair.runtime.inspect().config.tenants[0]!, base_url: 'http://127.0.0.1:9' }] };
    const reach = (await doctor(pair.clock, config)).find((c) => c.name === 'sandbox: reachable');
    expect(reach).toMatchObject({ status: 'fail', fix: expect.any(String) });
  });

  it("tells a runtime holding another signing secret than the endpoint's (the ping answered 401) to provision and restart", async () => {
    const name = webhookSecretName('sandbox', 'ops');
    const real = (await pair.runtime.inspect().store.secrets.get(name))!;
    await pair.runtime.inspect().store.secrets.put(name, 'whsec_not_the_endpoints');
    runtimePartsOf(pair.runtime).table.forgetSecrets();
    try {
      const ping = (await doctor()).find((c) => c.name === 'sandbox: webhook of ops');
      expect(ping).toMatchObject({ status: 'fail', detail: expect.stringContaining('401'), fix: expect.stringContaining('intrabot provision') });
    } finally {
      await pair.runtime.inspect().store.secrets.put(name, real);
      runtimePartsOf(pair.runtime).table.forgetSecrets();
    }
  });
});

// issue #15, item 3: `{ wall: Compnay }` in a bot's config passed load, provisioning and doctor
describe("intrabot doctor on a wall named in a bot's config", () => {
  let pair: Pair;
  let dir: string;
  beforeAll(async () => {
    pair = await startPair({ bots: ['ops'] });
    dir = mkdtempSync(join(tmpdir(), 'intrabot-doctor-walls-'));
    mkdirSync(join(dir, 'greeter'));
    writeFileSync(
      join(dir, 'greeter', 'bot.yaml'),
      'name: greeter\ndisplay_name: Greeter\nscopes: [read:walls]\nconfig:\n  target: { wall: Compnay }\n  fallback: { wall: Company }\n',
    );
    writeFileSync(join(dir, 'greeter', 'index.ts'), `import { defineBot } from '${resolve('src/index.ts')}';\nexport default defineBot({});\n`);
  });
  afterAll(async () => {
    await pair?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails the check of a name the tenant lacks, naming the field to fix, and passes one it has', async () => {
    const config = { ...pair.runtime.inspect().config, bots_dir: dir };
    const checks = await runDoctor({ config, clock: pair.clock, store: pair.runtime.inspect().store, env: process.env });
    expect(checks.find((c) => c.name === 'sandbox: wall of greeter/config.target')).toMatchObject({
      status: 'fail',
      detail: 'no wall named "Compnay"',
      fix: expect.stringContaining('config.target.wall of bot greeter'),
    });
    expect(checks.find((c) => c.name === 'sandbox: wall of greeter/config.fallback')).toMatchObject({ status: 'ok' });
  });
});

// issue #24: two bots answered one /hello, and neither the start nor doctor said so
describe('intrabot doctor on two bots answering one command on the same walls', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ bots: ['ops'] });
  });
  afterAll(async () => pair?.close());

  it('warns with a check line naming the command, both bots and the walls, with a fix', async () => {
    const config = { ...pair.runtime.inspect().config, bots_dir: resolve('test/fixtures/bots-overlap') };
    const checks = await runDoctor({ config, clock: pair.clock, store: pair.runtime.inspect().store, env: process.env });
    expect(checks.filter((c) => c.name === 'command /hello')).toEqual([
      {
        name: 'command /hello',
        status: 'warn',
        detail: 'command /hello is answered by both greeter and walled on wall 5 (tenant sandbox)',
        fix: expect.stringContaining('rename /hello'),
      },
      {
        name: 'command /hello',
        status: 'warn',
        detail: 'command /hello is answered by both greeter and welcome on wall 3 (tenant sandbox)',
        fix: expect.stringContaining('rename /hello'),
      },
    ]);
    // a command only one bot has is no overlap
    expect(checks.map((c) => c.name)).not.toContain('command /walled');
  });
});
