import type { RedisClient } from './redis-client';
import type { Clock } from '../../clock';
import { IntrabotError } from '../../errors';
import type { z } from 'zod';
import type { BackendOutbox, ListQueueOptions } from '../backend';
import {
  LOST_LEASES_REASON,
  MAX_LOST_LEASES,
  newEntryId,
  newId,
  readStoredPayload,
  type EnqueueInputSchema,
  type LeaseRef,
  type QueueEntry,
  type QueueLease,
} from '../queue';
import type { RedisKeys } from './keys';
import { pairsToRecord } from './lua-script';
import type { ReplicaWait } from './replica-wait';
import { COMPLETE, DEAD_LETTER, DEFER, DROP, ENQUEUE, EXTEND, REQUEUE, RESERVE, RETRY, SET_ASIDE } from './queue-scripts';

export function hashToEntry(h: Record<string, string>, now: number): QueueEntry {
  const dead = h.dead === '1';
  const leaseUntil = Number(h.lu ?? 0);
  const leased = !dead && (h.lt ?? '') !== '' && leaseUntil > now;
  const { payload, unreadable } = readStoredPayload(h.payload);
  return {
    id: h.id ?? '',
    target: h.target ?? '',
    payload,
    ...(unreadable === undefined ? {} : { unreadable }),
    state: dead ? 'dead' : leased ? 'leased' : 'pending',
    attempts: Number(h.att ?? 0),
    lastError: h.err ? h.err : null,
    deadReason: h.reason ? h.reason : null,
    enqueuedAt: Number(h.enq ?? 0),
    notBefore: Number(h.nb ?? 0),
    leaseUntil: leased ? leaseUntil : null,
  };
}

/**
 * A durable queue in plain Redis + Lua rather than BullMQ: the outbox needs FIFO per target with one
 * entry in flight per target while other targets proceed (BullMQ's groups are a paid extension), leases
 * that are checked against the injected clock (BullMQ's stalled-job checks run on Redis time), and a
 * dead-letter list that can be listed, requeued and dropped entry by entry. Each operation is one Lua
 * script, so replicas never both take an entry and a completion never races a redelivery.
 */
export class RedisQueue implements BackendOutbox {
  readonly q: string;
  /** A key of the queue's slot, passed as KEYS[1] so that a Cluster client sends each script to the queue's node. */
  protected readonly route: string[];

  constructor(
    protected readonly redis: RedisClient,
    keys: RedisKeys,
    name: string,
    protected readonly clock: Clock,
    protected readonly waits: ReplicaWait,
  ) {
    this.q = keys.queue(name);
    this.route = [`${this.q}live`];
  }

  /** Answered once stored (and, with `minReplicas`, confirmed by that many replicas: `ReplicaWait`). */
  async enqueue(input: z.output<typeof EnqueueInputSchema>): Promise<QueueEntry> {
    const now = this.clock.now();
    const id = input.id ?? newEntryId(now);
    const args = [this.q, id, input.target, JSON.stringify(input.payload), now, input.notBeforeMs ?? now, this.waits.on ? '1' : '0'];
    if ((await this.waits.run(ENQUEUE, this.route, args)) !== 1) throw new IntrabotError('conflict', `queue entry ${id} exists already`);
    return (await this.get(id))!;
  }

  async reserveMany(leaseMs: number, max: number): Promise<QueueLease[]> {
    const leases: QueueLease[] = [];
    let poisoned: number;
    do {
      poisoned = 0;
      for (const lease of await this.reserveBatch(leaseMs, max - leases.length)) {
        if (lease.unreadable === undefined) {
          leases.push(lease);
        } else {
          // a payload Lua cannot judge (it is parsed here): dead-lettered now, and another entry (its
          // target's next one, perhaps) is looked for in its place; were this process to die first, the
          // lost-lease count catches it
          poisoned++;
          await this.deadLetter(lease, lease.unreadable);
        }
      }
    } while (poisoned > 0 && leases.length < max);
    return leases;
  }

  private async reserveBatch(leaseMs: number, max: number): Promise<QueueLease[]> {
    const now = this.clock.now();
    const tokens = Array.from({ length: max }, () => newId());
    const hashes = (await RESERVE.run(this.redis, this.route, [this.q, now, leaseMs, max, MAX_LOST_LEASES, LOST_LEASES_REASON, ...tokens])) as unknown[];
    return hashes.map((flat) => {
      const record = pairsToRecord(flat);
      return { ...hashToEntry(record, now), leaseToken: record.lt ?? '' };
    });
  }

  async complete(lease: LeaseRef): Promise<boolean> {
    return (await COMPLETE.run(this.redis, this.route, [this.q, lease.id, lease.leaseToken])) === 1;
  }

  async retry(lease: LeaseRef, notBeforeMs: number, error: string): Promise<boolean> {
    return (await RETRY.run(this.redis, this.route, [this.q, lease.id, lease.leaseToken, notBeforeMs, error])) === 1;
  }

  async defer(lease: LeaseRef, notBeforeMs: number, note: string): Promise<boolean> {
    return (await DEFER.run(this.redis, this.route, [this.q, lease.id, lease.leaseToken, notBeforeMs, note])) === 1;
  }

  async setAside(lease: LeaseRef, target: string, notBeforeMs: number, note: string): Promise<boolean> {
    return (await SET_ASIDE.run(this.redis, this.route, [this.q, lease.id, lease.leaseToken, target, notBeforeMs, note])) === 1;
  }

  async deadLetter(lease: LeaseRef, reason: string): Promise<boolean> {
    return (await DEAD_LETTER.run(this.redis, this.route, [this.q, lease.id, lease.leaseToken, reason])) === 1;
  }

  async extend(lease: LeaseRef, leaseMs: number): Promise<boolean> {
    const until = this.clock.now() + leaseMs;
    return (await EXTEND.run(this.redis, this.route, [this.q, lease.id, lease.leaseToken, until])) === 1;
  }

  async get(id: string): Promise<QueueEntry | undefined> {
    const h = await this.redis.hgetall(`${this.q}e:${id}`);
    return h.id ? hashToEntry(h, this.clock.now()) : undefined;
  }

  async list(input: ListQueueOptions): Promise<QueueEntry[]> {
    const ids = await this.listIds(input.state, input.target, input.limit);
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(`${this.q}e:${id}`);
    const rows = (await pipeline.exec()) ?? [];
    const now = this.clock.now();
    return rows
      .map(([, h]) => h as Record<string, string>)
      .filter((h) => h && h.id && (input.target === undefined || h.target === input.target))
      .map((h) => hashToEntry(h, now))
      .slice(0, input.limit);
  }

  private async listIds(state: 'live' | 'dead', target: string | undefined, limit: number): Promise<string[]> {
    if (state === 'live' && target !== undefined) return this.redis.lrange(`${this.q}t:${target}`, 0, limit - 1);
    // a target filter on dead letters is applied after reading: dead letters are few
    return this.redis.zrange(`${this.q}${state}`, 0, target === undefined ? limit - 1 : -1);
  }

  async requeue(id: string): Promise<boolean> {
    return (await REQUEUE.run(this.redis, this.route, [this.q, id, this.clock.now()])) === 1;
  }

  async drop(id: string): Promise<boolean> {
    return (await DROP.run(this.redis, this.route, [this.q, id, this.clock.now()])) === 1;
  }

  async depth(target: string): Promise<number> {
    return this.redis.llen(`${this.q}t:${target}`);
  }
}
