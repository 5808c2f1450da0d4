import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { InboxWorker } from '../../src/runtime/ingest/inbox-worker';
import type { Inbox, InboxEntry } from '../../src/store/inbox';
import type { QueueLease } from '../../src/store/queue';

function lease(id: string): QueueLease<InboxEntry> {
  const payload = { tenant: 'default', bot: 'kudos', deliveryId: id, dedupeKey: null, event: 'post.created', envelope: {} };
  return {
    id,
    target: id,
    payload,
    state: 'leased',
    attempts: 1,
    lastError: null,
    deadReason: null,
    enqueuedAt: 0,
    notBefore: 0,
    leaseUntil: 60_000,
    leaseToken: `t-${id}`,
  };
}

function logger(): FastifyBaseLogger & { errors: string[] } {
  const errors: string[] = [];
  const log = { errors, error: (_: unknown, msg: string) => errors.push(msg), warn: () => {}, info: () => {}, debug: () => {}, child: () => log };
  return log as unknown as FastifyBaseLogger & { errors: string[] };
}

describe('InboxWorker', () => {
  it('renews the lease of a delivery being handled when the clock is moved forward past it, and not after', async () => {
    const queue = [lease('a')];
    const inbox = {
      reserve: vi.fn(async () => queue.shift() ?? null),
      complete: vi.fn(async () => true),
      extend: vi.fn(async () => true),
    } as unknown as Inbox;
    const clock = new AdjustableClock({ start: 0, frozen: true });
    let finish = (): void => undefined;
    const handling = new Promise<void>((resolve) => (finish = resolve));
    let started = false;
    const worker = new InboxWorker({
      inbox,
      clock,
      logger: logger(),
      concurrency: 1,
      pollMs: 10,
      handle: async () => {
        started = true;
        await handling;
      },
    });
    worker.start();
    await vi.waitFor(() => expect(started).toBe(true));
    clock.advance(3_600_000);
    await vi.waitFor(() => expect(inbox.extend).toHaveBeenCalledTimes(1));
    expect(inbox.extend).toHaveBeenCalledWith(expect.objectContaining({ id: 'a', leaseToken: 't-a' }), 60_000);
    finish();
    await vi.waitFor(() => expect(inbox.complete).toHaveBeenCalledTimes(1));
    clock.advance(3_600_000);
    await new Promise((r) => setTimeout(r, 0));
    expect(inbox.extend).toHaveBeenCalledTimes(1);
    await worker.stop();
  });

  it('keeps its lane when the store fails to record a failed delivery, and handles the next one', async () => {
    const queue = [lease('a'), lease('b')];
    const inbox = {
      reserve: vi.fn(async () => queue.shift() ?? null),
      complete: vi.fn(async () => true),
      retry: vi.fn(async () => {
        throw new Error('the store is down');
      }),
      deadLetter: vi.fn(async () => true),
    } as unknown as Inbox;
    const handled: string[] = [];
    const log = logger();
    const worker = new InboxWorker({
      inbox,
      clock: new AdjustableClock(),
      logger: log,
      concurrency: 1,
      pollMs: 10,
      handle: async (item) => {
        handled.push(item.deliveryId);
        if (item.deliveryId === 'a') throw new Error('handler failed');
      },
    });
    worker.start();
    await vi.waitFor(() => expect(handled).toEqual(['a', 'b']));
    await worker.stop();
    expect(log.errors).toContain('inbox: could not record a failed delivery');
    expect(inbox.complete).toHaveBeenCalledTimes(1);
  });
});
