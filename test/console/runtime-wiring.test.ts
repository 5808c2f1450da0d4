import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SECTIONS } from '../../src/console/console-views';
import { consoleDepsFrom } from '../../src/console/runtime-wiring';
import { runtimePartsOf } from '../../src/runtime/runtime-parts';
import { AUDIT_TRAIL_SPACE, AuditTrail } from '../../src/runtime/ingest/audit-trail';
import { DELIVERY_LOG_SPACE, DeliveryLog } from '../../src/runtime/ingest/delivery-log';
import { RateBudgetHistory } from '../../src/runtime/operations/rate-budget-history';
import { startPair, type Pair } from '../../src/testing';

const firing = readFileSync('test/fixtures/alerts/alertmanager-firing.json', 'utf8');

/** The console's JSON routes the page reads (and scripts may). */
const ROUTES = ['session', 'bots', 'deliveries', 'outbox', 'rate', 'jobs', 'alerts', 'audit'];

describe('the console wired to a runtime on the sandbox', () => {
  let pair: Pair;
  const get = async <T>(route: string): Promise<T> => (await (await fetch(`${pair.runtime.inspect().url}/console/api/${route}`)).json()) as T;
  const postAlert = (token: string) =>
    fetch(`${pair.runtime.inspect().url}/alerts/alerts/alertmanager`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: firing,
    });

  beforeAll(async () => {
    pair = await startPair({ bots: ['alerts', 'ops', 'birthday', 'todo-digest'] });
  });
  afterAll(async () => pair?.close());

  it('records each notification an alert input answered, counted per input, with the reason of a refusal', async () => {
    expect((await postAlert('wrong-token')).status).toBe(401);
    expect((await postAlert('sandbox-alert-token')).status).toBe(202);
    const view = await get<{
      inputs: { bot: string; input: string; path: string; auth: string; counts: object; last: { status: number } | null }[];
      recent: { status: number; accepted: number | null; queued: number | null; error: string | null }[];
    }>('alerts');
    const input = view.inputs.find((i) => i.input === 'alertmanager');
    expect(input).toMatchObject({
      bot: 'alerts',
      path: '/alerts/alerts/alertmanager',
      auth: 'bearer',
      counts: { accepted: 1, refused: 1, failed: 0 },
      last: { status: 202 },
    });
    expect(view.recent.slice(0, 2)).toMatchObject([
      { status: 202, accepted: expect.any(Number), queued: expect.any(Number), error: null },
      { status: 401, accepted: null, error: 'unauthorized' },
    ]);
    expect(view.recent[0]!.queued).toBeGreaterThan(0);
  });

  it("names the rate budget of the incoming webhook an alert was sent through, beside the tenant's token", async () => {
    // the critical alert of the fixture goes to the on-call chat: an incoming webhook of the alerts bot
    await pair.platform.waitFor(
      () => pair.platform.messages({ kind: 'chat' }),
      (m) => m.some((x) => String(x.text).includes('HighHTTPErrorRate')),
    );
    const view = await get<{ budgets: { kind: string; label: string; remaining: number | null; requestsLastMinute: number; samples: unknown[] }[] }>('rate');
    expect(view.budgets.find((b) => b.kind === 'token')).toMatchObject({ label: 'Token of tenant sandbox', remaining: expect.any(Number) });
    const hook = view.budgets.find((b) => b.kind === 'incoming');
    expect(hook).toMatchObject({ label: 'Incoming webhook of alerts, target oncall (tenant sandbox)', remaining: expect.any(Number) });
    expect(hook!.requestsLastMinute).toBeGreaterThan(0);
    expect(hook!.samples.length).toBeGreaterThan(0);
    expect(view.budgets.some((b) => b.kind === 'other')).toBe(false);
  });

  it('keeps answering, with the secret scrubbed, when a stored incoming-webhook URL has a malformed escape', async () => {
    await pair.runtime.inspect().store.secrets.put('incoming:sandbox:broken', 'http://127.0.0.1:1/api/open/v1/incoming/tok%E0%A4%A');
    for (const route of ['rate', 'outbox', 'bots']) {
      const res = await fetch(`${pair.runtime.inspect().url}/console/api/${route}`);
      expect(res.status).toBe(200);
      expect(await res.text()).not.toContain('tok%E0%A4%A');
    }
  });

  it("shows a message the platform refused among the outbox's dead letters with its reason, and puts it back in line on retry", async () => {
    // no such wall: the platform refuses the post, which is not retried
    const { id } = await runtimePartsOf(pair.runtime).delivery.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 987_654, body: 'Deploy finished' });
    type Outbox = { rows: { id: string; status: string; kind: string; summary: string; deadReason: string | null }[]; counts: Record<string, number> };
    const dead = await pair.platform.waitFor(
      () => get<Outbox>('outbox?status=dead'),
      (view) => view.rows.some((row) => row.id === id),
    );
    const row = dead.rows.find((r) => r.id === id)!;
    expect(row).toMatchObject({ status: 'dead', kind: 'post', summary: 'Deploy finished', deadReason: expect.any(String) });
    expect(row.deadReason!.length).toBeGreaterThan(0);
    const retry = await fetch(`${pair.runtime.inspect().url}/console/api/outbox/${id}/retry`, { method: 'POST', headers: { 'x-intrabot-console': '1' } });
    expect(retry.status).toBe(200);
    // back in line and sent again (the platform's request log shows a second POST), refused again: dead once more
    const posts = async (): Promise<number> =>
      (await pair.platform.request<{ data: { method: string; path: string }[] }>('GET', '/_sandbox/requests?limit=500')).data.filter(
        (r) => r.method === 'POST' && r.path.includes('/walls/987654/posts'),
      ).length;
    await pair.platform.waitFor(posts, (n) => n >= 2);
    await pair.platform.waitFor(
      () => pair.runtime.inspect().store.outbox.get(id),
      (entry) => entry?.state === 'dead',
    );
    const dropped = await fetch(`${pair.runtime.inspect().url}/console/api/outbox/${id}/drop`, { method: 'POST', headers: { 'x-intrabot-console': '1' } });
    expect(dropped.status).toBe(200);
    expect(await pair.runtime.inspect().store.outbox.get(id)).toBeUndefined();
  });

  // issue #24, item 4: the console showed a send's kind and destination, never what the bot said
  it("shows what a handled delivery's handler said: each send's kind, destination and text as posted", async () => {
    const post = await pair.platform.employeePost(10, { wall_id: 1, body: '/oncall' });
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    type Rows = { rows: { bot: string; status: string; detail: string | null; sends: { kind: string; to: string; text: string }[] }[] };
    const view = await pair.platform.waitFor(
      () => get<Rows>('deliveries?bot=ops&status=handled'),
      (v) => v.rows.some((r) => r.sends.length > 0),
    );
    const row = view.rows.find((r) => r.sends.length > 0)!;
    expect(row.sends).toEqual([{ kind: 'comment', to: `post ${post.id}`, text: comments[0]!.body }]);
  });

  it("shows a queued message's whole text, line breaks kept, with only a configured secret taken out", async () => {
    const body = `Release 4.2 is out\nnotes: https://example.test/4.2?key=${pair.sandbox.token}\nthanks all`;
    const { id } = await runtimePartsOf(pair.runtime).delivery.outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 987_654, body });
    // the platform refuses a wall that does not exist: it waits in the dead letters, to be read and dropped
    const view = await pair.platform.waitFor(
      () => get<{ rows: { id: string; kind: string; status: string; text: string }[] }>('outbox'),
      (v) => v.rows.some((r) => r.id === id && r.status === 'dead'),
    );
    const row = view.rows.find((r) => r.id === id)!;
    expect(row).toMatchObject({ kind: 'post', text: 'Release 4.2 is out\nnotes: https://example.test/4.2?key=[redacted]\nthanks all' });
    const dropped = await fetch(`${pair.runtime.inspect().url}/console/api/outbox/${id}/drop`, { method: 'POST', headers: { 'x-intrabot-console': '1' } });
    expect(dropped.status).toBe(200);
  });

  it('lists the bots with what provisioning made of them, and the scheduled jobs', async () => {
    const bots = await get<{ bots: { name: string; tenants: { enabled: boolean; botUserId: number | null; incoming: object }[]; alertInputs: string[] }[] }>(
      'bots',
    );
    expect(bots.bots.map((b) => b.name).sort()).toEqual(['alerts', 'birthday', 'ops', 'todo-digest']);
    const alerts = bots.bots.find((b) => b.name === 'alerts')!;
    expect(alerts.tenants[0]).toMatchObject({ enabled: true, botUserId: expect.any(Number), incoming: { oncall: expect.any(Number) } });
    expect(alerts.alertInputs).toEqual([
      'alertmanager',
      'grafana',
      'slack',
      'generic',
      'datadog',
      'sentry',
      'azure-monitor',
      'gcp-monitoring',
      'jenkins',
      'formatted-webhook',
      'healthchecks',
      'newrelic',
      'kibana',
    ]);
    const jobs = await get<{ jobs: { bot: string; job: string; nextSlot: number | null }[] }>('jobs');
    expect(jobs.jobs).toContainEqual(expect.objectContaining({ bot: 'birthday', job: 'greet', nextSlot: expect.any(Number) }));
  });

  it('builds views that hold none of the configured secrets, before any scrubbing, and knows every secret it must scrub', async () => {
    const { runtime, clock } = pair;
    // the same wiring as the runtime's, over its parts, without the plugin's scrubbing
    const parts = runtimePartsOf(runtime);
    const deps = consoleDepsFrom({
      ...parts,
      clock,
      inbox: {
        worker: { wake: () => undefined },
        deliveryLog: new DeliveryLog(runtime.inspect().store.kv(DELIVERY_LOG_SPACE), clock),
        auditTrail: new AuditTrail(runtime.inspect().store.kv(AUDIT_TRAIL_SPACE)),
      },
      rateHistory: new RateBudgetHistory(clock),
    });
    const secrets = await deps.secrets();
    const stored = await Promise.all((await runtime.inspect().store.secrets.names()).map((name) => runtime.inspect().store.secrets.get(name)));
    // the ops bot's signing secret and the alerts bot's on-call webhook URL at least
    expect(stored.length).toBeGreaterThanOrEqual(2);
    for (const value of [...stored, 'svc_sandbox_token', 'sandbox-alert-token', 'sandbox-report-secret', 'sandbox-proxy-key']) {
      expect(secrets).toContain(value);
    }
    const views = [
      await deps.bots(),
      await deps.deliveries({ limit: 1_000 }),
      await deps.outbox({ limit: 1_000 }),
      await deps.rateBudget(),
      await deps.jobs(),
      await deps.alertInputs(),
      await deps.audit({ limit: 1_000 }),
    ];
    expect(views).toHaveLength(CONSOLE_SECTIONS.length);
    const text = JSON.stringify(views);
    for (const secret of secrets) expect(text.includes(secret), 'a view holds a configured secret').toBe(false);
  });

  it('answers every JSON route without a configured secret', async () => {
    const secrets = [
      ...(await Promise.all((await pair.runtime.inspect().store.secrets.names()).map((n) => pair.runtime.inspect().store.secrets.get(n)))),
      'svc_sandbox_token',
      'sandbox-alert-token',
    ];
    for (const route of ROUTES) {
      const res = await fetch(`${pair.runtime.inspect().url}/console/api/${route}`);
      expect(res.status, route).toBe(200);
      const body = await res.text();
      for (const secret of secrets) expect(body.includes(secret!), `${route} holds a secret`).toBe(false);
    }
  });
});
