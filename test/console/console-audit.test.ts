import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRow, AuditView } from '../../src/console/views/audit-view';
import { startPair, type Pair } from '../../src/testing';
import { consoleApp, fakeDeps } from './fake-console';

/**
 * The console's audit log (issue #16) over its own API: what the ops bot (`use: [auditLog()]`) did,
 * as `GET /console/api/audit` and the live stream show it, behind the console's guard.
 */

const PROMPT = 'Deploy api to staging? Answer yes or no within 10 minutes.';
const TIMED_OUT = 'No answer in 10 minutes: web is not deployed to prod.';
/** A status URL with credentials in it: fetch refuses it, and its error quotes the whole URL. */
const LEAKY_STATUS_URL = 'http://ops:sandbox-proxy-key@127.0.0.1:9/health?token=svc_sandbox_token';

describe('the audit log in the console, over a runtime on the sandbox (ops bot)', () => {
  let pair: Pair;
  let wall: number;
  let ada: number;
  const url = (route: string): string => `${pair.runtime.inspect().url}/console/api/${route}`;
  const audit = async (query = ''): Promise<AuditView> => (await (await fetch(url(`audit${query}`))).json()) as AuditView;
  const waitForComment = (postId: number, text: string) =>
    pair.platform.waitFor(
      () => pair.platform.commentsOn(postId),
      (comments) => comments.some((c) => String(c.body).startsWith(text)),
      10_000,
    );
  const waitForRuns = (query: string, done: (rows: AuditRow[]) => boolean) => pair.platform.waitFor(async () => (await audit(query)).rows, done, 10_000);

  beforeAll(async () => {
    pair = await startPair({ bots: ['ops'], env: { OPS_STATUS_URL: LEAKY_STATUS_URL } });
    const refs = await pair.refs();
    wall = refs.company_wall_id;
    ada = refs.employee_ids[0]!;
  });
  afterAll(async () => pair?.close());

  it('lists a command, the answer to its question and a question that timed out, newest first, with who, where and what the bot did', async () => {
    const first = await pair.platform.employeePost(ada, { wall_id: wall, body: '/deploy api staging' });
    await waitForComment(first.id, PROMPT);
    await pair.platform.employeeComment(ada, { post_id: first.id, body: 'yes' });
    await waitForComment(first.id, '🚀 Deploying api to staging');
    const second = await pair.platform.employeePost(ada, { wall_id: wall, body: '/deploy web prod' });
    await waitForComment(second.id, 'Deploy web to prod?');
    await pair.platform.advance(10 * 60);
    await waitForComment(second.id, TIMED_OUT);

    const rows = await waitForRuns('?bot=ops', (r) => r.length >= 4);
    const who = { id: ada, name: expect.any(String) };
    expect(rows.map((r) => [r.kind, r.what])).toEqual([
      ['timeout', 'conversation confirm-deploy: timeout'],
      ['command', '/deploy'],
      ['answer', 'conversation confirm-deploy'],
      ['command', '/deploy'],
    ]);
    expect(rows[0]).toMatchObject({ bot: 'ops', tenant: 'sandbox', where: `post ${second.id}`, did: [`comment to post ${second.id}`], outcome: 'done' });
    expect(rows[1]).toMatchObject({ who, where: `post ${second.id} on wall ${wall}`, did: [`comment to post ${second.id}`], outcome: 'done', error: null });
    expect(rows[2]).toMatchObject({ who, where: `post ${first.id}`, did: [`comment to post ${first.id}`], outcome: 'done' });
    expect(rows[3]).toMatchObject({ who, where: `post ${first.id} on wall ${wall}` });
    expect(rows[0]!.at).toBeGreaterThanOrEqual(rows[1]!.at + 10 * 60_000);
  });

  it('marks a failed run with its error, the secrets it quoted redacted', async () => {
    const post = await pair.platform.employeePost(ada, { wall_id: wall, body: '/status' });
    const [failed] = await waitForRuns('?outcome=failed', (r) => r.some((row) => row.what === '/status'));
    expect(failed).toMatchObject({ kind: 'command', what: '/status', where: `post ${post.id} on wall ${wall}`, did: [], outcome: 'failed' });
    expect(failed!.error).toContain('Request cannot be constructed from a URL that includes credentials');
    expect(failed!.error).toContain('[redacted]');
    for (const query of ['', '?outcome=failed', '?bot=ops']) {
      const body = await (await fetch(url(`audit${query}`))).text();
      expect(body).not.toContain('sandbox-proxy-key');
      expect(body).not.toContain('svc_sandbox_token');
    }
  });

  it('filters by bot and outcome, counts the outcomes, and refuses a bad filter naming the field', async () => {
    const all = await audit();
    expect(all.bots).toEqual(['ops']);
    expect(all.tenants).toEqual(['sandbox']);
    expect(all.counts.failed).toBeGreaterThanOrEqual(1);
    expect(all.counts.done).toBeGreaterThanOrEqual(4);
    expect((await audit('?outcome=failed')).rows.every((r) => r.outcome === 'failed')).toBe(true);
    expect((await audit('?outcome=done&limit=2')).rows.map((r) => r.outcome)).toEqual(['done', 'done']);
    expect(await audit('?bot=kudos')).toMatchObject({ rows: [], counts: { done: 0, failed: 0 }, bots: ['ops'] });
    for (const [query, field] of [
      ['?outcome=lost', 'query.outcome'],
      ['?limit=0', 'query.limit'],
      ['?bot=', 'query.bot'],
    ]) {
      const res = await fetch(url(`audit${query}`));
      expect(res.status, query).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_input', details: { field } });
    }
    const unknown = await fetch(url('audit?colour=red'));
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { message: string }).message).toContain('colour');
  });

  it('carries the audit log in the live stream, and sends it again when a bot runs', async () => {
    const controller = new AbortController();
    const res = await fetch(url('stream'), { signal: controller.signal });
    const stream = auditSections(res.body!);
    try {
      const first = await stream.next();
      expect(first.rows.length).toBeGreaterThanOrEqual(5);
      expect(first.rows[0]!.what).not.toBe('/oncall');
      const post = await pair.platform.employeePost(ada, { wall_id: wall, body: '/oncall' });
      let latest = await stream.next();
      while (latest.rows[0]?.what !== '/oncall') latest = await stream.next();
      expect(latest.rows[0]).toMatchObject({ kind: 'command', where: `post ${post.id} on wall ${wall}`, did: [`comment to post ${post.id}`], outcome: 'done' });
      expect(JSON.stringify(latest)).not.toContain('sandbox-proxy-key');
    } finally {
      controller.abort();
    }
  });
});

describe('the audit log route behind the console guard', () => {
  const ADMIN = 'admin-token-for-console-audit-tests';
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('answers loopback callers only, and outside sandbox mode only with the admin token', async () => {
    app = await consoleApp(fakeDeps('sandbox', undefined).deps);
    expect((await app.inject({ method: 'GET', url: '/console/api/audit' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/console/api/audit', remoteAddress: '10.1.2.3' })).statusCode).toBe(403);
    await app.close();

    app = await consoleApp(fakeDeps('connected', undefined).deps);
    const off = await app.inject({ method: 'GET', url: '/console/api/audit' });
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toContain('INTRABOT_ADMIN_TOKEN');
    await app.close();

    app = await consoleApp(fakeDeps('connected', ADMIN).deps);
    expect((await app.inject({ method: 'GET', url: '/console/api/audit' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/console/api/audit', headers: { authorization: `Bearer ${ADMIN}x` } })).statusCode).toBe(401);
    const right = await app.inject({ method: 'GET', url: '/console/api/audit', headers: { authorization: `Bearer ${ADMIN}` } });
    expect(right.statusCode).toBe(200);
    expect(right.headers['cache-control']).toBe('no-store');
  });

  it("scrubs the configured secrets and any bearer or incoming-webhook token from a failed run's error", async () => {
    const { deps, state } = fakeDeps('connected', ADMIN);
    state.audit.push({
      at: 1,
      tenant: 'default',
      bot: 'ops',
      kind: 'command',
      what: '/sync',
      did: [],
      outcome: 'failed',
      error: `signed in with ${ADMIN}, then https://h.example/api/open/v1/incoming/hook-token-42 refused svc_other_token`,
    });
    app = await consoleApp(deps);
    const res = await app.inject({ method: 'GET', url: '/console/api/audit', headers: { authorization: `Bearer ${ADMIN}` } });
    const error: string = res.json().rows[0].error;
    expect(error).toBe('signed in with [redacted], then https://h.example/api/open/v1/incoming/[redacted] refused svc_[redacted]');
  });
});

/** The audit sections of a live stream, one at a time as they come. */
function auditSections(body: ReadableStream<Uint8Array>): { next(): Promise<AuditView> } {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next() {
      for (;;) {
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = /^event: section\ndata: (.*)$/m.exec(block)?.[1];
          const section = data === undefined ? undefined : (JSON.parse(data) as { section: string; data: AuditView });
          if (section?.section === 'audit') return section.data;
        }
        const { done, value } = await reader.read();
        if (done) throw new Error('the stream ended before an audit section came');
        buffer += decoder.decode(value, { stream: true });
      }
    },
  };
}
