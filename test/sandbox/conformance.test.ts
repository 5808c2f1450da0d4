import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConformanceCommand } from '../../src/cli/commands/conformance';
import { AdjustableClock } from '../../src/clock';
import { CONFORMANCE_CHECKS, openConformanceSession, type ConformanceSession } from '../../src/conformance';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';

/**
 * The fidelity suite: every conformance check, one test each, run by the production client
 * against the sandbox over real loopback HTTP. The same checks run against a real customer host
 * through `intrabot conformance --base-url`.
 */
describe('conformance of the sandbox to the spec', () => {
  let sandbox: Sandbox;
  let session: ConformanceSession;

  beforeAll(async () => {
    const clock = new AdjustableClock();
    sandbox = await createSandbox({ port: 0, clock });
    // the suite makes a few hundred requests; the 60-per-minute pacing has its own test
    await fetch(`${sandbox.baseUrl}/_sandbox/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rate_limit_per_minute: 100_000 }),
    });
    session = await openConformanceSession({ baseUrl: sandbox.baseUrl, token: sandbox.token, clock, clockSharedWithHost: true, rateLimitPerMinute: 100_000 });
  });

  afterAll(async () => {
    await session.close();
    await sandbox.close();
  });

  it('finds the sandbox through its control API and allows the writing checks there', () => {
    expect(session.ctx.sandbox).toBeDefined();
    expect(session.ctx.allowWrites).toBe(true);
  });

  for (const check of CONFORMANCE_CHECKS) {
    it(`${check.title} (spec: ${check.section})`, async () => {
      await check.run(session.api, session.ctx);
    });
  }
});

describe('a session on a sandbox whose clock it does not share', () => {
  it("paces on a clock that follows the sandbox's, also when a check moves it", async () => {
    const start = Date.UTC(2030, 0, 15, 9, 0, 0);
    const other = await createSandbox({ port: 0, clock: new AdjustableClock({ start, frozen: true }) });
    const session = await openConformanceSession({ baseUrl: other.baseUrl, token: other.token, clock: new AdjustableClock() });
    try {
      expect(Math.abs(session.ctx.clock.now() - start)).toBeLessThan(5_000);
      await session.ctx.sandbox!.advance(31 * 60);
      expect(Math.abs(session.ctx.clock.now() - (start + 31 * 60_000))).toBeLessThan(5_000);
    } finally {
      await session.close();
      await other.close();
    }
  });
});

describe('intrabot conformance', () => {
  it('starts its own sandbox, prints the parity table and exits 0 when nothing fails', async () => {
    let out = '';
    let err = '';
    const command = createConformanceCommand({ env: {}, stdout: (t) => (out += t), stderr: (t) => (err += t) });
    const code = await command.run([]);
    expect(err).toBe('');
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^check\s+spec section\s+result$/);
    for (const check of CONFORMANCE_CHECKS) {
      expect(lines.find((l) => l.startsWith(`${check.id} `))).toMatch(new RegExp(`${escape(check.section)}\\s+pass$`));
    }
    expect(out).toContain(`${CONFORMANCE_CHECKS.length} passed, 0 failed, 0 skipped`);
    expect(out).not.toContain('svc_sandbox_token');
  });

  it('prints JSON results with --json', async () => {
    let out = '';
    const command = createConformanceCommand({ env: {}, stdout: (t) => (out += t), stderr: () => undefined });
    expect(await command.run(['--json'])).toBe(0);
    const parsed = JSON.parse(out) as { results: { id: string; outcome: string }[] };
    expect(parsed.results.map((r) => r.id)).toEqual(CONFORMANCE_CHECKS.map((c) => c.id));
    expect(new Set(parsed.results.map((r) => r.outcome))).toEqual(new Set(['pass']));
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
