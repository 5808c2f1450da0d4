import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { outboxBusyFrom } from '../../src/proxy/outbox-busy';
import { ShareGate } from '../../src/proxy/share-gate';
import type { Store } from '../../src/store';
import { tempStore } from '../helpers/temp-store';

describe('outboxBusyFrom', () => {
  let store: Store | undefined;
  afterEach(async () => store?.close());

  it('is busy while a send is queued or leased, and not for dead letters', async () => {
    const clock = new AdjustableClock({ start: Date.UTC(2026, 10, 22), frozen: true });
    store = await tempStore(clock);
    const busy = outboxBusyFrom(store.outbox);
    expect(await busy()).toBe(false);
    await store.outbox.enqueue({ target: 'token:sandbox', payload: { kind: 'post' } });
    expect(await busy()).toBe(true);
    const lease = await store.outbox.reserve(60_000);
    if (!lease) throw new Error('expected a lease');
    expect(await busy()).toBe(true);
    await store.outbox.deadLetter(lease, 'validation_error');
    expect(await busy()).toBe(false);
  });
});

describe('the proxy share counted in the store (several replicas)', () => {
  let store: Store | undefined;
  afterEach(async () => store?.close());

  it('uses store.rate as the share budget, so two gates (two replicas) share one count', async () => {
    const clock = new AdjustableClock({ start: Date.UTC(2026, 10, 22), frozen: true });
    store = await tempStore(clock);
    const replicas = [0, 1].map(() => new ShareGate({ clock, outboxBusy: async () => true, share: 0.5, budget: store?.rate }));
    for (const gate of replicas) gate.observe('acme', { 'x-ratelimit-limit': '4' }, undefined);
    const [a, b] = replicas as [ShareGate, ShareGate];
    await a.admit('acme');
    await b.admit('acme');
    await expect(a.admit('acme')).rejects.toMatchObject({ code: 'proxy_share_exceeded' });
    await expect(b.admit('acme')).rejects.toMatchObject({ code: 'proxy_share_exceeded' });
    clock.advance(60_001);
    await expect(b.admit('acme')).resolves.toMatchObject({ limit: 2 });
  });
});
