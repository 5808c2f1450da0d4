import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { InboxWorker } from '../../src/runtime/inbox-worker';
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
