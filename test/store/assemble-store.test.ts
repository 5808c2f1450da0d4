import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { assembleStore, type Store, type StoreBackend } from '../../src/store';

/** A backend that records every call and answers nothing useful: what reaches it is what the shared checks let through. */
function recordingBackend(): { backend: StoreBackend; calls: string[]; received: unknown[][] } {
  const calls: string[] = [];
  const received: unknown[][] = [];
  const part = (name: string): object =>
    new Proxy(
      {},
      {
        get:
          (_target, method) =>
          async (...args: unknown[]) => {
            calls.push(`${name}.${String(method)}`);
            received.push(args);
            return method === 'list' || method === 'reserveMany' ? [] : undefined;
          },
      },
    );
  const backend = {
    kind: 'recording',
    inbox: part('inbox'),
    outbox: part('outbox'),
    claims: part('claims'),
    rate: part('rate'),
    secrets: part('secrets'),
    kv: (namespace: string) => part(`kv(${namespace})`),
    schemaVersion: async () => 1,
    ping: async () => undefined,
    close: async () => undefined,
  } as unknown as StoreBackend;
  return { backend, calls, received };
}

const lease = { id: 'e-1', leaseToken: 't-1' };

/** One call per checked argument, each wrong in exactly that argument, and the field its error must name. */
const BAD_CALLS: [string, (store: Store) => Promise<unknown>, string][] = [
  ['inbox.accept', (s) => s.inbox.accept({ tenant: '', bot: 'b', deliveryId: 'd', envelope: {} }), 'delivery.tenant'],
  ['inbox.reserveMany', (s) => s.inbox.reserveMany(0, 1), 'leaseMs'],
  ['inbox.reserveMany', (s) => s.inbox.reserveMany(1_000, 1_001), 'max'],
  ['inbox.retry', (s) => s.inbox.retry(lease, -1, 'x'), 'notBeforeMs'],
  ['inbox.deadLetter', (s) => s.inbox.deadLetter(lease, 'x'.repeat(10_001)), 'reason'],
  ['inbox.extend', (s) => s.inbox.extend({ id: 'e-1' } as never, 1_000), 'lease'],
  ['inbox.list', (s) => s.inbox.list({ limit: 0 }), 'list.limit'],
  ['outbox.enqueue', (s) => s.outbox.enqueue({ target: '', payload: 1 }), 'entry.target'],
  ['outbox.setAside', (s) => s.outbox.setAside(lease, '', 0, 'held'), 'target'],
  ['outbox.defer', (s) => s.outbox.defer(lease, Number.NaN, 'held'), 'notBeforeMs'],
  ['outbox.depth', (s) => s.outbox.depth(''), 'target'],
  ['claims.claim', (s) => s.claims.claim('', 1_000), 'key'],
  ['claims.claim', (s) => s.claims.claim('k', 0), 'ttlMs'],
  ['claims.renew', (s) => s.claims.renew('k', 1.5), 'ttlMs'],
  ['rate.take', (s) => s.rate.take('token:t', { limit: 0, windowMs: 60_000 }), 'window.limit'],
  ['rate.observe', (s) => s.rate.observe('token:t', { limit: 60, windowMs: 60_000, remaining: -1 }), 'observation.remaining'],
  ['kv.set', (s) => s.kv('bot:x').set('', 1), 'key'],
  ['kv.set', (s) => s.kv('bot:x').set('k', 1, { ttlMs: -5 }), 'options.ttlMs'],
  ['kv.set', (s) => s.kv('bot:x').set('k', undefined as never), 'value'],
  ['kv', async (s) => s.kv(''), 'namespace'],
  ['secrets.put', (s) => s.secrets.put('', 'v'), 'name'],
];

describe('the store over a backend (assembleStore)', () => {
  it.each(BAD_CALLS)('checks %s before the backend sees it, naming %s', async (_name, call, field) => {
    const { backend, calls } = recordingBackend();
    const store = assembleStore(backend, { clock: new AdjustableClock(), secretKey: 'c2VjcmV0LWtleS1mb3ItdGhlLXN0b3JlLWNvbnRyYWN0IQ==' });
    await expect(call(store)).rejects.toMatchObject({ code: 'invalid_input', field });
    expect(calls).toEqual([]);
  });

  it('hands the backend checked arguments with their defaults filled in', async () => {
    const { backend, calls, received } = recordingBackend();
    const store = assembleStore(backend, { clock: new AdjustableClock() });
    await store.inbox.list();
    await store.claims.claim('k', 1_000);
    await store.kv('bot:x').list();
    await store.kv('bot:x').set('k', { a: 1 }, { ttlMs: 5_000 });
    expect(calls).toEqual(['inbox.list', 'claims.claim', 'kv(bot:x).list', 'kv(bot:x).set']);
    expect(received).toEqual([[{ state: 'live', limit: 100 }], ['k', 1_000, { lock: false }], [''], ['k', '{"a":1}', 5_000]]);
  });
});
