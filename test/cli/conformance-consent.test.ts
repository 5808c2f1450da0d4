import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConformanceCommand } from '../../src/cli/commands/conformance';
import { AdjustableClock } from '../../src/clock';
import { openConformanceSession } from '../../src/conformance';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { SandboxControl } from '../../src/testing';

/**
 * Issue #15, item 2: `intrabot conformance --base-url` against a live sandbox wrote data and left its
 * clock 31 minutes ahead, without a word. Now it refuses to write to a sandbox it did not start unless
 * `--yes`, saying what it would write, and puts the sandbox's clock back once the run is over.
 */
describe('intrabot conformance against a sandbox it did not start', () => {
  let sandbox: Sandbox;
  let control: SandboxControl;
  const sandboxNow = async (): Promise<number> => (await control.request<{ epoch_ms: number }>('GET', '/_sandbox/clock')).epoch_ms;

  beforeAll(async () => {
    // the demo seed: a sandbox with people and walls, as `intrabot start` runs one
    sandbox = await createSandbox({ clock: new AdjustableClock(), port: 0, seed: 'demo' });
    control = new SandboxControl(sandbox.baseUrl);
  });
  afterAll(async () => sandbox?.close());

  const run = async (extra: string[]): Promise<{ code: number; out: string; err: string }> => {
    let out = '';
    let err = '';
    const command = createConformanceCommand({ env: {}, stdout: (t) => (out += t), stderr: (t) => (err += t) });
    const code = await command.run(['--base-url', sandbox.baseUrl, '--token', sandbox.token, '--json', ...extra]);
    return { code, out, err };
  };

  it('refuses without --yes, saying what it would write, and sends the sandbox no API request', async () => {
    const { code, out, err } = await run([]);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toContain('is a sandbox this command did not start');
    expect(err).toContain('posts, comments and deletions on the first wall');
    expect(err).toContain('move its clock 31 minutes ahead');
    expect(err).toContain('--yes');
    const logged = await control.request<{ data: { method: string; path: string }[] }>('GET', '/_sandbox/requests');
    expect(logged.data.filter((r) => r.path.startsWith('/api/'))).toEqual([]);
  });

  it('puts the sandbox clock back once a run that moved it is over (the edit-window check moves it 31 minutes)', async () => {
    const session = await openConformanceSession({ baseUrl: sandbox.baseUrl, token: sandbox.token, clock: new AdjustableClock() });
    await session.ctx.sandbox!.advance(31 * 60);
    expect((await sandboxNow()) - Date.now()).toBeGreaterThan(30 * 60_000);
    await session.close();
    expect(Math.abs((await sandboxNow()) - Date.now())).toBeLessThan(5_000);
  });
});
