import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { AdjustableClock } from '../../src/clock';
import { SILENT_LOGGER } from '../../src/log';
import { LAST_RETRY_AFTER_MS, RotationPlans, type RotationPlan } from '../../src/runtime/rotation/rotation-plan';
import { runtimePartsOf } from '../../src/runtime/runtime-parts';
import { SecretRotations } from '../../src/runtime/rotation/secret-rotations';
import { retiringSecretName, SECRETS_FRESH_MS } from '../../src/runtime/rotation/signing-secrets';
import { openStore, sqliteStorePath, type Store } from '../../src/store';
import { startPair, type Pair } from '../../src/testing';
import { freePort } from '../helpers/free-port';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';
import { postCreatedEnvelope, signedDelivery } from '../helpers/deliveries';

const REDIS = redisTestUrl();

/**
 * Zero-downtime rotation of a bot's signing secret (issue #17, item 2), over real HTTP between the
 * sandbox and the runtime, on the shared injected clock. spec: Outgoing webhook management (no rotate
 * endpoint: a second endpoint, then revoke), Events, Outgoing webhooks ("retries run 1 minute and 10
 * minutes after the first attempt; each attempt carries a fresh Timestamp and is signed again").
 */

const BOTS_DIR = resolve('test/fixtures/bots-rotation');
const TOKEN = 'svc_sandbox_token';

type Envelope = { id: string; event: string; payload: { id?: number; body?: string } };

/** What the runtime answered one delivery attempt the proxy passed on. */
interface Answer {
  deliveryId: string;
  event: string;
  body: string | undefined;
  attempt: number;
  status: number;
  duplicate: boolean;
}

/**
 * Stands between the platform and the runtime (the endpoints' URL), as a flaky network would: it fails
 * the attempts `fails` picks (503, so the platform retries) and passes the others on, recording what the
 * runtime answered.
 */
class DeliveryProxy {
  readonly answers: Answer[] = [];
  upstream: string | undefined;
  private readonly attempts = new Map<string, number>();
  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly fails: (envelope: Envelope, attempt: number) => boolean,
  ) {
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void this.pass(Buffer.concat(chunks), req.url ?? '/', req.headers).then(
          ({ status, text }) => res.writeHead(status, { 'content-type': 'application/json' }).end(text),
          () => res.writeHead(502).end(),
        );
      });
    });
  }

  static async start(fails: (envelope: Envelope, attempt: number) => boolean): Promise<DeliveryProxy> {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    return new DeliveryProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, fails);
  }

  private async pass(body: Buffer, path: string, headers: Record<string, string | string[] | undefined>): Promise<{ status: number; text: string }> {
    const envelope = JSON.parse(body.toString('utf8')) as Envelope;
    const attempt = (this.attempts.get(envelope.id) ?? 0) + 1;
    this.attempts.set(envelope.id, attempt);
    if (!this.upstream || this.fails(envelope, attempt)) return { status: 503, text: '{}' };
    const answer = await fetch(`${this.upstream}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', signature: String(headers.signature), timestamp: String(headers.timestamp) },
      body,
    });
    const text = await answer.text();
    const duplicate = answer.ok && (JSON.parse(text) as { duplicate?: boolean }).duplicate === true;
    this.answers.push({ deliveryId: envelope.id, event: envelope.event, body: envelope.payload.body, attempt, status: answer.status, duplicate });
    return { status: answer.status, text };
  }

  close(): Promise<void> {
    return new Promise((done) => this.server.close(() => done()));
  }
}

interface Endpoint {
  id: number;
  name: string;
  events: string[];
  filters: Record<string, number[]>;
  is_active: boolean;
  revoked_at: string | null;
}

async function platformApi<T>(pair: Pair, method: string, path: string): Promise<T> {
  const res = await fetch(`${pair.sandbox.baseUrl}/api/open/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}` } });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
  return ((await res.json()) as { data: T }).data;
}

const endpoints = (pair: Pair): Promise<Endpoint[]> => platformApi<Endpoint[]>(pair, 'GET', '/webhooks?per_page=50');
const secretOf = async (pair: Pair, id: number): Promise<string> => (await platformApi<{ secret: string }>(pair, 'GET', `/webhooks/${id}/secret`)).secret;

async function rotate(pair: Pair, bot = 'tally'): Promise<{ status: number; body: { rotation?: RotationPlan; message?: string } }> {
  const res = await fetch(`${pair.runtime.inspect().url}/_admin/rotations/sandbox/${bot}`, { method: 'POST' });
  return { status: res.status, body: (await res.json()) as { rotation?: RotationPlan; message?: string } };
}

async function plan(pair: Pair, bot = 'tally'): Promise<RotationPlan | undefined> {
  const res = await fetch(`${pair.runtime.inspect().url}/_admin/rotations`);
  return ((await res.json()) as { data: RotationPlan[] }).data.find((p) => p.bot === bot);
}

/** Polls (real time, short) until the condition holds: the outcome, not a fixed sleep. */
async function until<T>(read: () => Promise<T | undefined>, done: (value: T | undefined) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (value !== undefined && done(value)) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** A signed delivery of a post.created, as the platform would send it with `secret`. */
async function deliverSigned(pair: Pair, secret: string, postId: number): Promise<number> {
  const envelope = postCreatedEnvelope(pair.clock, { id: postId, body: 'signed by hand' });
  const res = await fetch(`${pair.runtime.inspect().url}/hooks/sandbox/tally`, { method: 'POST', ...signedDelivery(secret, envelope) });
  return res.status;
}

describe('rotating a bot signing secret', () => {
  let pair: Pair | undefined;
  let proxy: DeliveryProxy | undefined;
  afterEach(async () => {
    await pair?.close();
    await proxy?.close();
    pair = undefined;
    proxy = undefined;
  });

  async function start(fails: (envelope: Envelope, attempt: number) => boolean = () => false, env: Record<string, string> = {}): Promise<Pair> {
    proxy = await DeliveryProxy.start(fails);
    pair = await startPair({ botsDir: BOTS_DIR, bots: ['tally'], env: { INTRABOT_PUBLIC_URL: proxy.url, ...env } });
    proxy.upstream = pair.runtime.inspect().url;
    return pair;
  }

  /** A restart listens on another port: the proxy (the endpoints' URL) follows it. */
  async function restart(p: Pair, whileDown?: () => Promise<void>): Promise<void> {
    await p.restartRuntime(whileDown);
    proxy!.upstream = p.runtime.inspect().url;
  }

  it('refuses no delivery and handles none twice under a stream of events with retries, and revokes the old endpoint after the retry window', async () => {
    // posts numbered 3, 6, 9 ... fail their first attempt; 1, 5, 9 ... their first two, so their last retry
    // comes 10 minutes later, signed with the secret of the endpoint they were sent to
    const numberOf = (e: Envelope): number => Number(/-(\d+)$/.exec(e.payload.body ?? '')?.[1] ?? 0);
    const p = await start(
      (e, attempt) => e.event === 'service.post.created' && ((numberOf(e) % 3 === 0 && attempt === 1) || (numberOf(e) % 4 === 1 && attempt <= 2)),
    );
    const refs = await p.refs();
    const employees = refs.employee_ids.slice(0, 4);
    let n = 0;
    const posts: number[] = [];
    const stream = async (count: number): Promise<void> => {
      for (let i = 0; i < count; i++) {
        n += 1;
        const post = await p.platform.employeePost(employees[n % employees.length]!, { wall_id: refs.company_wall_id, body: `post-${n}` });
        posts.push(post.id as number);
      }
    };

    const [old] = (await endpoints(p)).filter((e) => e.name === 'intrabot:tally');
    await stream(6);
    // the rotation runs while posts keep coming
    const [, rotated] = await Promise.all([stream(6), rotate(p)]);
    expect(rotated.status).toBe(200);
    const begun = rotated.body.rotation!;
    expect(begun).toMatchObject({ phase: 'overlap', oldEndpointId: old!.id });
    expect(JSON.stringify(rotated.body)).not.toContain(await secretOf(p, old!.id));
    await stream(6);
    // everything handled and sent before the clock jumps: a jump while work is in flight outlives its leases
    await p.settle({ advanceClock: true, timeoutMs: 30_000 });
    // events of another kind, sent to both endpoints now: the event keys keep them from being handled twice
    await p.platform.award(refs.achievements.custom_public_id, employees[0]!);
    await p.platform.award(refs.achievements.custom_public_id, employees[1]!);
    await p.platform.register(refs.pending_user_id);

    const live = (await endpoints(p)).filter((e) => e.name === 'intrabot:tally' && !e.revoked_at);
    expect(live.map((e) => e.id).sort()).toEqual([old!.id, begun.newEndpointId].sort());
    const fresh = live.find((e) => e.id === begun.newEndpointId)!;
    expect({ events: [...fresh.events].sort(), filters: fresh.filters }).toEqual({ events: [...old!.events].sort(), filters: old!.filters });

    // the platform's retries at 1 and 10 minutes, on the shared clock
    await p.platform.advance(61);
    await p.settle({ advanceClock: true, timeoutMs: 30_000 });
    await p.platform.advance(600);
    await p.settle({ advanceClock: true, timeoutMs: 30_000 });

    // the last retries came signed with the old secret, after 10 minutes: accepted, and the old endpoint is still there
    const lateRetries = proxy!.answers.filter((a) => a.attempt === 3);
    expect(lateRetries.length).toBeGreaterThan(0);
    expect((await plan(p))?.phase).toBe('overlap');
    expect((await endpoints(p)).find((e) => e.id === old!.id)?.revoked_at).toBeNull();

    // past the window: the old endpoint is revoked, on the clock, not before its last retry could come
    await p.platform.advance(Math.ceil((begun.revokeAt! - p.clock.now()) / 1000) + 1);
    const done = await until(
      () => plan(p),
      (x) => x?.phase === 'done',
      'the rotation to finish',
    );
    const revoked = (await endpoints(p)).find((e) => e.id === old!.id)!;
    expect(revoked.revoked_at).not.toBeNull();
    expect(Date.parse(revoked.revoked_at!)).toBeGreaterThanOrEqual(done.subscribedAt! + LAST_RETRY_AFTER_MS);
    await p.settle({ advanceClock: true, timeoutMs: 30_000 });

    // none refused: every attempt the runtime saw was accepted
    expect(proxy!.answers.filter((a) => a.status !== 200)).toEqual([]);
    // the same events came through both endpoints, and the copies were acknowledged, not handled
    expect(proxy!.answers.some((a) => a.duplicate && a.event === 'service.post.created')).toBe(true);
    expect(proxy!.answers.some((a) => a.duplicate && a.event === 'service.achievement.awarded')).toBe(true);
    expect(proxy!.answers.some((a) => a.duplicate && a.event === 'service.user.registered')).toBe(true);
    // none doubled: one reply per post, one handling per award and registration
    for (const id of posts) {
      const replies = (await p.platform.commentsOn(id)).filter((c) => String(c.body).startsWith('seen:'));
      expect(replies, `replies to post ${id}`).toHaveLength(1);
    }
    const handled = await p.runtime.inspect().store.kv('bot:sandbox:tally').list();
    const counts = new Map<string, number>();
    for (const item of handled) {
      const key = item.key.split(':').slice(-3, -1).join(':');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect([...counts.values()]).toEqual([1, 1, 1]);

    // afterwards the old secret signs nothing the runtime accepts; the new one does
    expect(await deliverSigned(p, await secretOf(p, old!.id), posts[0]!)).toBe(401);
    expect(await deliverSigned(p, await secretOf(p, begun.newEndpointId!), posts[0]!)).toBe(200);
  }, 90_000);

  it('finishes a rotation interrupted by a restart, without a leftover endpoint', async () => {
    const p = await start();
    const refs = await p.refs();
    const [old] = (await endpoints(p)).filter((e) => e.name === 'intrabot:tally');
    // the step that gives the new endpoint its events fails once: the rotation stops half-way
    await p.platform.fault({ method: 'PUT', path: '/api/open/v1/webhooks/*', status: 422, count: 1 });
    const failed = await rotate(p);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await plan(p)).toMatchObject({ phase: 'creating', lastError: expect.any(String) });
    expect(await rotate(p)).toMatchObject({ status: 409 });

    await restart(p);
    const resumed = await until(
      () => plan(p),
      (x) => x?.phase === 'overlap',
      'the restarted runtime to carry the rotation on',
    );
    const ours = (await endpoints(p)).filter((e) => e.name === 'intrabot:tally' && !e.revoked_at);
    expect(ours.map((e) => e.id).sort()).toEqual([old!.id, resumed.newEndpointId].sort());

    const post = await p.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: 'during the overlap' });
    await p.settle({ advanceClock: true, timeoutMs: 30_000 });
    expect((await p.platform.commentsOn(post.id as number)).filter((c) => String(c.body).startsWith('seen:'))).toHaveLength(1);

    await restart(p);
    await p.platform.advance(Math.ceil((resumed.revokeAt! - p.clock.now()) / 1000) + 1);
    await until(
      () => plan(p),
      (x) => x?.phase === 'done',
      'the rotation to finish after a second restart',
    );
    const after = (await endpoints(p)).filter((e) => e.name === 'intrabot:tally');
    expect(after.filter((e) => !e.revoked_at).map((e) => e.id)).toEqual([resumed.newEndpointId]);
    expect(proxy!.answers.filter((a) => a.status !== 200)).toEqual([]);
  }, 60_000);

  it('takes over the endpoint a crashed run created before it could save its id, instead of making another', async () => {
    const p = await start();
    const [old] = (await endpoints(p)).filter((e) => e.name === 'intrabot:tally');
    // what a run that died right after POST /webhooks leaves: a quiet endpoint by our name, a plan without its id
    const res = await fetch(`${p.sandbox.baseUrl}/api/open/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'intrabot:tally', url: proxy!.url + '/hooks/sandbox/tally', events: ['service.test'] }),
    });
    const orphan = ((await res.json()) as { data: Endpoint }).data;
    const path = sqliteStorePath(p.runtime.inspect().config.data_dir);
    await restart(p, async () => {
      const down = await openStore({ kind: 'sqlite', path }, { clock: p.clock });
      await new RotationPlans(down).put({
        tenant: 'sandbox',
        bot: 'tally',
        phase: 'creating',
        startedAt: p.clock.now(),
        oldEndpointId: old!.id,
        url: proxy!.url + '/hooks/sandbox/tally',
        events: old!.events,
        filters: old!.filters,
      });
      await down.close();
    });
    const resumed = await until(
      () => plan(p),
      (x) => x?.phase === 'overlap',
      'the rotation to be carried on',
    );
    expect(resumed.newEndpointId).toBe(orphan.id);
    const live = (await endpoints(p)).filter((e) => e.name === 'intrabot:tally' && !e.revoked_at);
    expect(live.map((e) => e.id).sort()).toEqual([old!.id, orphan.id].sort());
    expect([...live.find((e) => e.id === orphan.id)!.events].sort()).toEqual([...old!.events].sort());
  }, 60_000);

  it('accepts deliveries signed with any secret configured for the bot, beside the provisioned one', async () => {
    const first = 'configured-secret-one-0123456789';
    const second = 'configured-secret-two-0123456789';
    const p = await start(undefined, { INTRABOT_WEBHOOK_SECRETS: `tally:${first},tally:${second}` });
    const refs = await p.refs();
    const post = await p.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: 'from the platform' });
    expect(await deliverSigned(p, first, post.id as number)).toBe(200);
    expect(await deliverSigned(p, second, post.id as number)).toBe(200);
    expect(await deliverSigned(p, 'a-secret-nobody-configured-0123', post.id as number)).toBe(401);
    await p.settle({ advanceClock: true, timeoutMs: 30_000 });
    // the provisioned endpoint's deliveries are still accepted, and the same post is answered once
    expect(proxy!.answers.map((a) => a.status)).toEqual([200]);
    expect((await p.platform.commentsOn(post.id as number)).filter((c) => String(c.body).startsWith('seen:'))).toHaveLength(1);
  }, 60_000);
});

describe.each([
  { kind: 'sqlite' as const, skip: false },
  { kind: 'redis' as const, skip: !REDIS },
])('secret rotation across replicas sharing a $kind store', ({ kind, skip }) => {
  let pair: Pair | undefined;
  let shared: { store: Store; prefix: string } | undefined;
  afterEach(async () => {
    await pair?.close();
    pair = undefined;
    if (shared) {
      await shared.store.close();
      await deleteRedisPrefix(REDIS!, shared.prefix);
      shared = undefined;
    }
  });

  /** The pair, on a Redis store for the scaled-out kind (the replicas' claims and plans live there). */
  async function startShared(): Promise<Pair> {
    // the store judges its claims on its clock: the pair's, which the tests move
    const clock = new AdjustableClock();
    if (kind === 'redis') {
      const prefix = uniqueRedisPrefix('rotation');
      shared = { prefix, store: await openStore({ kind: 'redis', url: REDIS!, prefix }, { clock, secretKey: 'rotation-test-key' }) };
    }
    return startPair({ botsDir: BOTS_DIR, bots: ['tally'], clock, ...(shared ? { store: shared.store } : {}) });
  }

  /** A post the bot has seen and everything it set off has played out: what deliveries are signed about. */
  async function settledPost(p: Pair): Promise<{ id: unknown }> {
    const refs = await p.refs();
    const post = await p.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: 'before' });
    await p.settle({ advanceClock: true, timeoutMs: 30_000 });
    return post;
  }

  /** Another replica's view: its own rotations over the same store and platform (claims decide who acts). */
  function replicaOf(p: Pair): SecretRotations {
    const { store, clock, table } = runtimePartsOf(p.runtime);
    return new SecretRotations({ store, clock, table, logger: SILENT_LOGGER });
  }

  it.skipIf(skip)(
    'accepts a secret another replica stored at the first delivery signed with it, and drops the one it replaced',
    async () => {
      pair = await startShared();
      const post = await settledPost(pair);
      const store = pair.runtime.inspect().store;
      const before = (await store.secrets.get(webhookSecretName('sandbox', 'tally')))!;
      // as a rotation on another replica does: the store changes, this replica's table is not told
      const rotated = 'a-secret-another-replica-stored-0123456789';
      await store.secrets.put(webhookSecretName('sandbox', 'tally'), rotated);
      expect(await deliverSigned(pair, rotated, post.id as number)).toBe(200);
      expect(await deliverSigned(pair, before, post.id as number)).toBe(401);
    },
    60_000,
  );

  it.skipIf(skip)(
    'stops accepting a retiring secret another replica deleted, within a minute on the clock',
    async () => {
      pair = await startShared();
      const post = await settledPost(pair);
      const store = pair.runtime.inspect().store;
      const retiring = 'a-retiring-secret-of-a-rotation-0123456789';
      await store.secrets.put(retiringSecretName('sandbox', 'tally'), retiring);
      expect(await deliverSigned(pair, retiring, post.id as number)).toBe(200);
      // the other replica finished the rotation: the secret is gone from the store, this replica still holds it
      await store.secrets.delete(retiringSecretName('sandbox', 'tally'));
      expect(await deliverSigned(pair, retiring, post.id as number)).toBe(200);
      await pair.platform.advance(SECRETS_FRESH_MS / 1000);
      expect(await deliverSigned(pair, retiring, post.id as number)).toBe(401);
    },
    60_000,
  );

  it.skipIf(skip)(
    'rotates once when two replicas are asked at the same time, and revokes the old endpoint once',
    async () => {
      pair = await startShared();
      const p = pair;
      const [old] = (await endpoints(p)).filter((e) => e.name === 'intrabot:tally');
      const other = replicaOf(p);
      other.start();
      try {
        const outcomes = await Promise.allSettled([rotate(p), other.rotate('sandbox', 'tally')]);
        const ours = outcomes[0].status === 'fulfilled' ? outcomes[0].value : undefined;
        const theirs = outcomes[1];
        // exactly one began it; the other was told so (409 over HTTP, a conflict error in process)
        const began = [ours?.status === 200, theirs.status === 'fulfilled'].filter(Boolean);
        expect(began).toHaveLength(1);
        if (ours?.status !== 200) expect(ours?.status).toBe(409);
        if (theirs.status === 'rejected') expect(theirs.reason).toMatchObject({ code: 'conflict' });
        const live = (await endpoints(p)).filter((e) => e.name === 'intrabot:tally' && !e.revoked_at);
        expect(live).toHaveLength(2);

        const current = (await plan(p))!;
        await fetch(`${p.sandbox.baseUrl}/_sandbox/requests`, { method: 'DELETE' });
        await p.platform.advance(Math.ceil((current.revokeAt! - p.clock.now()) / 1000) + 1);
        await until(
          () => plan(p),
          (x) => x?.phase === 'done',
          'the rotation to finish',
        );
        const log = (await (await fetch(`${p.sandbox.baseUrl}/_sandbox/requests?limit=1000`)).json()) as { data: { method: string; path: string }[] };
        expect(log.data.filter((r) => r.method === 'POST' && r.path.includes(`/webhooks/${old!.id}/revoke`))).toHaveLength(1);
      } finally {
        await other.stop();
      }
    },
    60_000,
  );
});
