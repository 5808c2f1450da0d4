import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createConformanceCommand } from '../../src/cli/commands/conformance';
import { AdjustableClock } from '../../src/clock';
import {
  CONFORMANCE_CHECKS,
  ConformanceMismatch,
  checkFirstPage,
  formatParityTable,
  openConformanceSession,
  runCheck,
  type CheckResult,
  type ConformanceSession,
} from '../../src/conformance';

/**
 * The checks must be able to fail: here the host is a MockAgent that breaks one rule at a time,
 * and each check has to say which rule and how. It is not a sandbox (its control API does not
 * answer), so it also shows what a run against a real host skips.
 */
const ORIGIN = 'https://acme.example';
const TOKEN = 'svc_conformance_secret_token_42';
const JSON_HEADERS = { 'content-type': 'application/json' };

function user(id: number): Record<string, unknown> {
  return {
    id,
    name: `User ${id}`,
    first_name: 'User',
    last_name: String(id),
    email: `u${id}@acme.example`,
    type: 'default',
    avatar_url: null,
    title: null,
    groups: [],
    is_manager: false,
    hired_at: null,
    date_of_birth: null,
    is_away: false,
    last_active_on: null,
    registered_at: '2030-01-01T09:00:00+01:00',
    created_at: '2030-01-01T09:00:00+01:00',
  };
}

function page(data: unknown[], meta: Record<string, unknown>, links: Record<string, unknown>): string {
  return JSON.stringify({ data, links, meta });
}

const GOOD_LINKS = { first: `${ORIGIN}/api/open/v1/users?page=1`, last: `${ORIGIN}/api/open/v1/users?page=1`, prev: null, next: null };
const GOOD_META = { current_page: 1, last_page: 1, per_page: 25, total: 1, from: 1, to: 1 };

describe('conformance checks against a host that breaks the rules', () => {
  let agent: MockAgent | undefined;
  let session: ConformanceSession | undefined;

  /** A session on the double; `agent` is the double, which each test teaches what to answer. */
  async function open(options: { allowWrites?: boolean } = {}): Promise<ConformanceSession & { agent: MockAgent }> {
    agent = new MockAgent();
    agent.disableNetConnect();
    session = await openConformanceSession({ baseUrl: ORIGIN, token: TOKEN, clock: new AdjustableClock({ frozen: true }), dispatcher: agent, ...options });
    return { ...session, agent };
  }

  function check(id: string) {
    const found = CONFORMANCE_CHECKS.find((c) => c.id === id);
    if (!found) throw new Error(`no check ${id}`);
    return found;
  }

  afterEach(async () => {
    await session?.close();
    await agent?.close();
    session = undefined;
    agent = undefined;
  });

  it('accepts a well-formed first page and names each broken part of the envelope (spec: Pagination)', () => {
    expect(() => checkFirstPage({ data: [user(1)], links: GOOD_LINKS, meta: GOOD_META }, 'GET /users')).not.toThrow();
    expect(() => checkFirstPage({ data: [], links: GOOD_LINKS, meta: { ...GOOD_META, total: 0, from: null, to: null } }, 'GET /users')).not.toThrow();
    const broken = [
      [{ links: { ...GOOD_LINKS, prev: `${ORIGIN}/api/open/v1/users?page=0` } }, 'links.prev on page 1'],
      [{ links: { ...GOOD_LINKS, first: '/api/open/v1/users?page=1' } }, 'links.first: expected an absolute URL'],
      [{ meta: { ...GOOD_META, total: '1' } }, 'meta.total: expected an integer'],
      [{ meta: { ...GOOD_META, last_page: 2 } }, 'links.next with 2 pages'],
    ] as const;
    for (const [change, message] of broken) {
      const call = () => checkFirstPage({ data: [user(1)], links: GOOD_LINKS, meta: GOOD_META, ...change }, 'GET /users');
      expect(call).toThrow(ConformanceMismatch);
      expect(call).toThrow(message);
    }
  });

  it('fails per_page capping when the host serves 100 items a page (spec: Pagination)', async () => {
    const { api, ctx, agent } = await open();
    const users = Array.from({ length: 60 }, (_, i) => user(i + 1));
    agent
      .get(ORIGIN)
      .intercept({ method: 'GET', path: (p) => p.startsWith('/api/open/v1/users') })
      .reply(200, page(users, { ...GOOD_META, per_page: 100, total: 60, to: 60 }, GOOD_LINKS), { headers: JSON_HEADERS });
    const result = await runCheck(check('pagination.per-page-cap'), { api, ctx });
    expect(result).toMatchObject({ outcome: 'fail', message: 'meta.per_page when asking for 100: expected 50, got 100' });
  });

  it('fails a 404 that carries a body (spec: Errors)', async () => {
    const { api, ctx, agent } = await open();
    agent
      .get(ORIGIN)
      .intercept({ method: 'GET', path: (p) => p.endsWith('/987654321') })
      .reply(404, JSON.stringify({ error: 'not_found', message: 'No query results' }), { headers: JSON_HEADERS })
      .persist();
    const result = await runCheck(check('errors.not-found'), { api, ctx });
    expect(result.outcome).toBe('fail');
    expect(result.message).toContain('GET /walls/987654321 body: expected null');
  });

  it('fails an invalid token answered with 403 instead of 401 (spec: Authentication 5)', async () => {
    const { api, ctx, agent } = await open();
    agent
      .get(ORIGIN)
      .intercept({ method: 'GET', path: '/api/open/v1/walls' })
      .reply(403, JSON.stringify({ error: 'forbidden', message: 'nope' }), { headers: JSON_HEADERS });
    const result = await runCheck(check('auth.invalid-token'), { api, ctx });
    expect(result).toMatchObject({ outcome: 'fail', message: 'GET /walls with an invalid token status: expected 401, got 403' });
  });

  it('passes GET /token on a host that answers it as documented', async () => {
    const { api, ctx, agent } = await open();
    agent
      .get(ORIGIN)
      .intercept({ method: 'GET', path: '/api/open/v1/token' })
      .reply(200, JSON.stringify({ data: { name: 'ci', scopes: ['read:users'], expires_at: null } }), { headers: JSON_HEADERS });
    expect(await runCheck(check('token.info'), { api, ctx })).toMatchObject({ outcome: 'pass' });
  });

  it('skips writing checks on a host that is not a sandbox unless writes are allowed', async () => {
    const { api, ctx } = await open();
    expect(ctx.sandbox).toBeUndefined();
    expect(await runCheck(check('posts.create-get-delete'), { api, ctx })).toMatchObject({
      outcome: 'skipped',
      message: expect.stringContaining('--allow-writes'),
    });
  });

  it('skips the comment edit window without a sandbox clock, even with writes allowed (spec: Comment edit window)', async () => {
    const { api, ctx } = await open({ allowWrites: true });
    expect(await runCheck(check('comments.edit-window'), { api, ctx })).toMatchObject({
      outcome: 'skipped',
      message: expect.stringContaining('sandbox clock'),
    });
  });
});

describe('parity table', () => {
  it('lists check, spec section and result, then the counts and the host', () => {
    const results: CheckResult[] = [
      { id: 'a.pass', title: 't', section: 'Pagination', readOnly: true, outcome: 'pass' },
      { id: 'b.fail', title: 't', section: 'Errors (404)', readOnly: true, outcome: 'fail', message: 'body: expected null' },
      { id: 'c.skip', title: 't', section: 'Comment edit window', readOnly: false, outcome: 'skipped', message: 'no clock' },
    ];
    expect(formatParityTable(results, 'https://acme.example').split('\n')).toEqual([
      'check   spec section         result',
      '------  -------------------  ------',
      'a.pass  Pagination           pass',
      'b.fail  Errors (404)         fail: body: expected null',
      'c.skip  Comment edit window  skipped: no clock',
      '',
      '1 passed, 1 failed, 1 skipped against https://acme.example',
      '',
    ]);
  });
});

describe('parity table beside the sandbox', () => {
  it('shows the sandbox outcome in its own column and counts the rows that differ', () => {
    const row = (id: string, outcome: CheckResult['outcome'], message?: string): CheckResult => ({
      id,
      title: 't',
      section: 'S',
      readOnly: true,
      outcome,
      ...(message ? { message } : {}),
    });
    const table = formatParityTable([row('a', 'pass'), row('b', 'fail', 'no meta')], 'https://acme.example', [row('a', 'pass'), row('b', 'pass')]);
    expect(table.split('\n')).toEqual([
      'check  spec section  sandbox  result',
      '-----  ------------  -------  ------',
      'a      S             pass     pass',
      'b      S             pass     fail: no meta',
      '',
      '1 passed, 1 failed, 0 skipped against https://acme.example; 1 differ from the sandbox',
      '',
    ]);
  });
});

describe('intrabot conformance against an unreachable host', () => {
  it('exits 1 when checks fail and never prints the token', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    let out = '';
    let err = '';
    const command = createConformanceCommand({
      env: {},
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      dispatcher: agent,
      clock: new AdjustableClock({ frozen: true }),
    });
    const code = await command.run(['--base-url', ORIGIN, '--token', TOKEN, '--narrow-token', 'svc_narrow_secret_7']);
    await agent.close();
    expect(code).toBe(1);
    // beside each host result, the same check against a fresh in-process sandbox
    expect(out).toMatch(/^check\s+spec section\s+sandbox\s+result$/m);
    expect(out).toMatch(/^pagination\.envelope\s+Pagination\s+pass\s+fail: /m);
    expect(out).toMatch(/^posts\.create-get-delete\s.*pass\s+skipped: writes a record/m);
    expect(out).toMatch(/against https:\/\/acme\.example; \d+ differ from the sandbox/);
    expect(`${out}${err}`).not.toContain(TOKEN);
    expect(`${out}${err}`).not.toContain('svc_narrow_secret_7');
  });

  it('answers a usage error (exit 2) for a token without a base URL', async () => {
    let err = '';
    const command = createConformanceCommand({ env: {}, stdout: () => undefined, stderr: (t) => (err += t) });
    expect(await command.run(['--token', TOKEN])).toBe(2);
    expect(err).toContain('--base-url and --token go together');
    expect(err).not.toContain(TOKEN);
  });
});
