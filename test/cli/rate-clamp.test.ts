import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiCommand } from '../../src/cli/commands/api';
import { AdjustableClock } from '../../src/clock';

const API = '/api/open/v1';

/**
 * Issue #15, item 2: a platform whose rate-limit reset lies an hour ahead (its clock, or ours, is
 * wrong) must not hold a command for an hour. The wait is clamped to the 60 s window (spec: Limits),
 * said once with the value received, and the command finishes. A tiny local server plays the platform;
 * the command runs on a frozen clock the test moves, so a minute of waiting costs no minute of testing.
 */
describe('intrabot api against a platform whose reset is an hour ahead', () => {
  let server: Server;
  let base: string;
  const clock = new AdjustableClock({ start: Date.now(), frozen: true });
  const resetHeader = String(Math.floor(clock.now() / 1000) + 3_600);

  beforeAll(async () => {
    server = createServer((req, res) => {
      const page = new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1';
      const next = page === '1' ? `${base}${API}/users?page=2&per_page=1` : null;
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-ratelimit-limit': '60',
        // the first answer spends the budget and says it comes back in an hour
        'x-ratelimit-remaining': page === '1' ? '0' : '59',
        'x-ratelimit-reset': resetHeader,
      });
      res.end(JSON.stringify({ data: [{ id: Number(page) }], links: { prev: null, next }, meta: { current_page: Number(page), per_page: 1, total: 2 } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('says it clamped the reset to the 60 s window, with the value received, waits no longer, and finishes', async () => {
    let out = '';
    let err = '';
    const command = createApiCommand({ env: {}, clock, stdout: (t) => (out += t), stderr: (t) => (err += t) });
    const done = command.run(['GET', '/users', '--paginate', '--base-url', base, '--token', 'svc_rate_clamp_test']);

    await vi.waitFor(() => expect(err).toContain('for rate budget'), { timeout: 10_000 });
    // the reset is in whole seconds, the frozen clock between two: an hour ahead reads as 3599 or 3600 s
    expect(err).toMatch(
      new RegExp(
        `intrabot api: the platform's X-RateLimit-Reset \\(${resetHeader}\\) asks for a wait of 3(599|600) s, beyond its 60 s rate window: waiting 60 s at most`,
      ),
    );
    const waited = Number(/waiting (\d+) s for rate budget/.exec(err)?.[1]);
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(61);
    expect(err.match(/X-RateLimit-Reset/g)).toHaveLength(1);

    clock.advance(waited * 1000);
    expect(await done).toBe(0);
    expect(JSON.parse(out)).toEqual([{ id: 1 }, { id: 2 }]);
  });
});
