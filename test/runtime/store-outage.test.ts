import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { AdjustableClock } from '../../src/clock';
import { openStore, type Store } from '../../src/store';
import { startPair, type Pair } from '../../src/testing';
import { sign } from '../../src/webhooks/signature';
import { SANDBOX_REPORT_SECRET } from '../../src/webhooks/report';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';
import { dropPostgresSchema, postgresTestUrl, uniquePostgresSchema } from '../helpers/postgres';
import { postgresOutage, redisOutage, sqliteOutage } from '../helpers/store-outage';

const REDIS = redisTestUrl();
const POSTGRES = postgresTestUrl();

interface Outage {
  store: Store;
  start(): Promise<void>;
  end(): Promise<void>;
  cleanup(): Promise<void>;
}

/** A store reached through a forwarder the test cuts and restores, and what its data is cleared by. */
function forwardedOutage(
  store: Store,
  forwarder: { cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> },
  clear: () => Promise<void>,
): Outage {
  return {
    store,
    start: () => forwarder.cut(),
    end: () => forwarder.restore(),
    cleanup: async () => {
      await forwarder.close();
      await clear();
    },
  };
}

/** A store of the kind under test that the test can take away and give back. */
async function outageOf(kind: 'sqlite' | 'redis' | 'postgres', clock: AdjustableClock): Promise<Outage> {
  const secretKey = 'store-outage-test-key';
  if (kind === 'postgres') {
    const schema = uniquePostgresSchema('outage');
    const forwarder = await postgresOutage(POSTGRES!);
    const store = await openStore({ kind: 'postgres', url: forwarder.url, schema }, { clock, secretKey });
    return forwardedOutage(store, forwarder, () => dropPostgresSchema(POSTGRES!, schema));
  }
  if (kind === 'redis') {
    const prefix = uniqueRedisPrefix('outage');
    const forwarder = await redisOutage(REDIS!);
    const store = await openStore({ kind: 'redis', url: forwarder.url, prefix }, { clock, secretKey });
    return forwardedOutage(store, forwarder, () => deleteRedisPrefix(REDIS!, prefix));
  }
  const dir = mkdtempSync(join(tmpdir(), 'intrabot-outage-'));
  const outage = sqliteOutage(await openStore({ kind: 'sqlite', path: join(dir, 'intrabot.db') }, { clock, secretKey }));
  return {
    store: outage.store,
    start: async () => void (outage.down = true),
    end: async () => void (outage.down = false),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Issue #12, defect 8: during a store outage the alert inputs answered 500 without Retry-After and
 * /readyz stayed 200. Every route that writes to the store now answers 503 with Retry-After, and
 * /readyz 503 with the reason, until the store is back.
 */
describe.each([
  { kind: 'sqlite' as const, skip: false },
  { kind: 'redis' as const, skip: !REDIS },
  { kind: 'postgres' as const, skip: !POSTGRES },
])('a $kind store outage, over HTTP', ({ kind, skip }) => {
  let pair: Pair;
  let outage: Outage;
  let hookSecret: string;

  beforeAll(async () => {
    if (skip) return;
    const clock = new AdjustableClock();
    outage = await outageOf(kind, clock);
    pair = await startPair({ bots: ['alerts', 'ops', 'todo-digest'], store: outage.store });
    hookSecret = (await outage.store.secrets.get(webhookSecretName('sandbox', 'ops')))!;
  }, 60_000);
  afterAll(async () => {
    if (skip) return;
    await outage?.end();
    await pair?.close();
    await outage?.store.close();
    await outage?.cleanup();
  });

  const url = (path: string): string => `${pair.runtime.inspect().url}${path}`;
  const readyz = async (): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(url('/readyz'));
    return { status: res.status, body: await res.json() };
  };
  const signedPost = (path: string, event: string, secret: string): Promise<Response> => {
    const nowS = Math.floor(pair.clock.now() / 1000);
    const body = JSON.stringify({ id: randomUUID(), event, version: 'v1', timestamp: nowS, customer: 'sandbox', payload: { id: 1 } });
    return fetch(url(path), {
      method: 'POST',
      headers: { 'content-type': 'application/json', timestamp: String(nowS), signature: sign(secret, nowS, body) },
      body,
    });
  };
  const alert = (): Promise<Response> =>
    fetch(url('/alerts/alerts/slack'), {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-alert-token', 'content-type': 'application/json' },
      body: JSON.stringify({ text: `disk full ${randomUUID()}` }),
    });
  const expectRetryLater = async (res: Response): Promise<void> => {
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // what failed stays in the log: no host, path or driver text in the answer
    expect(JSON.stringify(await res.json())).not.toMatch(/127\.0\.0\.1|intrabot\.db|SQLITE|ECONN/);
  };

  it.skipIf(skip)(
    'answers 503 with Retry-After on deliveries, reports, alerts and admin routes, and /readyz 503 with the reason',
    async () => {
      expect((await readyz()).status).toBe(200);
      await outage.start();
      try {
        expect(await readyz()).toEqual({
          status: 503,
          body: { ok: false, reason: 'store_unavailable', message: `the ${kind} store does not answer` },
        });
        await expectRetryLater(await signedPost('/hooks/sandbox/ops', 'service.post.created', hookSecret));
        await expectRetryLater(await signedPost('/reports/sandbox/todo-digest', 'service.todoliststats.daily', SANDBOX_REPORT_SECRET));
        await expectRetryLater(await alert());
        await expectRetryLater(await fetch(url('/_admin/deliveries')));
      } finally {
        await outage.end();
      }
    },
    30_000,
  );

  it.skipIf(skip)(
    'is ready again, and takes deliveries and alerts, once the store is back',
    async () => {
      await pair.platform.waitFor(readyz, (r) => r.status === 200, 10_000);
      expect((await signedPost('/hooks/sandbox/ops', 'service.post.created', hookSecret)).status).toBe(200);
      expect((await alert()).status).toBe(200);
    },
    30_000,
  );
});
