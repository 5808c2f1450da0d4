import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock';
import type { JsonValue } from '../store/json';
import type { KvSpace } from '../store/kv';
import type { Store } from '../store/store';
import { AlertStateMapSchema } from './dedupe';
import { AlertsBusyError } from './input-errors';

/** What one (tenant, bot, input, group) remembers, per target: alert states and messages sent so far. */
export const GroupStateSchema = z.object({
  targets: z.record(
    z.string(),
    z.object({
      /** Bumped after every notification whose messages to this target were all queued. */
      seq: z.int().nonnegative(),
      alerts: AlertStateMapSchema,
    }),
  ),
});
export type GroupState = z.infer<typeof GroupStateSchema>;

/** What a firing post reported (the refs of its alerts) and which of them resolved since. */
const PostRecordSchema = z.object({ refs: z.array(z.string()).min(1), resolved: z.array(z.string()) });
type PostRecord = z.infer<typeof PostRecordSchema>;

/** Who acknowledged a firing post, and when (ms). */
export const AlertAckSchema = z.object({ by: z.object({ id: z.number(), name: z.string() }), at: z.number() });
export type AlertAck = z.infer<typeof AlertAckSchema>;

/** A firing post's incident as the bots see it (`ctx`'s alert incidents). */
export interface AlertIncidentRecord {
  postId: number;
  /** The alert input that posted it. */
  input: string;
  /** How many alerts it reported, and how many of them resolved since. */
  alerts: number;
  resolved: number;
  /** `resolved` once every alert it reported has. */
  state: 'firing' | 'resolved';
  acknowledged?: AlertAck;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Longer than dedupe's 7-day retention, so a state is never forgotten while dedupe still counts on it. */
const STATE_TTL_MS = 8 * DAY_MS;
/** An incident may stay open for weeks; its resolution should still answer the post. */
const REF_TTL_MS = 30 * DAY_MS;
const LOCK_TTL_MS = 30_000;

/**
 * The alert inputs' memory in the store, one kv namespace per tenant and bot (`alerts:<tenant>:<bot>`):
 * - `state:<input>:<group hash>`: the dedupe state of a group (`GroupState`);
 * - `ref:<input>:<target>:<fingerprint>:<started>`: the id of the post that reported an alert firing;
 * - `post:<post id>`: what a firing post reported, and which of it resolved since (`PostRecord`);
 * - `ack:<post id>`: who acknowledged it, first come first kept (`AlertAck`).
 */
export class AlertInputState {
  private readonly local = new Map<string, Promise<unknown>>();

  constructor(private readonly store: { kv: Store['kv']; claims: Pick<Store['claims'], 'claim' | 'release'> }) {}

  async load(tenant: string, bot: string, key: string): Promise<GroupState> {
    const value = await this.kv(tenant, bot).get(key);
    const parsed = GroupStateSchema.safeParse(value);
    // an unreadable state (older format) is a fresh start: at worst an alert is posted again
    return parsed.success ? parsed.data : { targets: {} };
  }

  /** Kept at least a day past the dedupe window, so the store never forgets what dedupe still counts on. */
  async save(tenant: string, bot: string, key: string, state: GroupState, windowMs = 0): Promise<void> {
    await this.kv(tenant, bot).set(key, state as unknown as JsonValue, { ttlMs: Math.max(STATE_TTL_MS, windowMs + DAY_MS) });
  }

  /** The post ids of the given refs that are known. */
  async refs(tenant: string, bot: string, refKeys: readonly string[]): Promise<Map<string, number>> {
    const kv = this.kv(tenant, bot);
    const found = new Map<string, number>();
    for (const refKey of new Set(refKeys)) {
      const value = await kv.get(`ref:${refKey}`);
      if (typeof value === 'number') found.set(refKey, value);
    }
    return found;
  }

  /**
   * The sender created the post of a firing message: remember it under the refs of the alerts it reported
   * (carried by the outbox entry), so their resolutions answer it.
   */
  async recordPost(tenant: string, bot: string, refKeys: readonly string[], postId: number): Promise<void> {
    const kv = this.kv(tenant, bot);
    for (const refKey of new Set(refKeys)) await kv.set(`ref:${refKey}`, postId, { ttlMs: REF_TTL_MS });
    const record: PostRecord = { refs: [...new Set(refKeys)], resolved: [] };
    await kv.set(`post:${postId}`, record as unknown as JsonValue, { ttlMs: REF_TTL_MS });
  }

  /**
   * Resolutions of alerts a firing post reported were queued (as comments under it): the post's incident
   * is resolved once all of them are. Called with the group's lock held, so two never interleave.
   */
  async noteResolved(tenant: string, bot: string, postId: number, refKeys: readonly string[]): Promise<void> {
    const kv = this.kv(tenant, bot);
    const record = PostRecordSchema.safeParse(await kv.get(`post:${postId}`));
    if (!record.success) return;
    const resolved = [...new Set([...record.data.resolved, ...refKeys.filter((ref) => record.data.refs.includes(ref))])];
    await kv.set(`post:${postId}`, { ...record.data, resolved } as unknown as JsonValue, { ttlMs: REF_TTL_MS });
  }

  /** The incident a firing post reports: its alerts, how many resolved, and who acknowledged it; undefined for any other post. */
  async incident(tenant: string, bot: string, postId: number): Promise<AlertIncidentRecord | undefined> {
    const kv = this.kv(tenant, bot);
    const record = PostRecordSchema.safeParse(await kv.get(`post:${postId}`));
    if (!record.success) return undefined;
    const ack = AlertAckSchema.safeParse(await kv.get(`ack:${postId}`));
    const { refs, resolved } = record.data;
    return {
      postId,
      input: refs[0]?.split(':')[0] ?? '',
      alerts: refs.length,
      resolved: resolved.length,
      state: resolved.length >= refs.length ? 'resolved' : 'firing',
      ...(ack.success ? { acknowledged: ack.data } : {}),
    };
  }

  /**
   * Records who acknowledged a firing post: the first acknowledgement across replicas is kept (a claim in
   * the store), later ones are told who was first. It changes no alert state, so an acknowledgement that
   * races a resolution reopens nothing. Undefined when the post reports no incident.
   */
  async acknowledge(tenant: string, bot: string, postId: number, ack: AlertAck): Promise<{ incident: AlertIncidentRecord; first: boolean } | undefined> {
    const incident = await this.incident(tenant, bot, postId);
    if (!incident) return undefined;
    if (incident.acknowledged || incident.state === 'resolved') return { incident, first: false };
    if (!(await this.store.claims.claim(`alerts-ack:${hashOf(`${tenant}\u0000${bot}\u0000${postId}`)}`, REF_TTL_MS))) {
      return { incident: (await this.incident(tenant, bot, postId)) ?? incident, first: false };
    }
    await this.kv(tenant, bot).set(`ack:${postId}`, ack as unknown as JsonValue, { ttlMs: REF_TTL_MS });
    return { incident: { ...incident, acknowledged: ack }, first: true };
  }

  /** One bot's alert posts on a tenant, as its runs see them (`ctx.locals`: `alertIncident`, `acknowledgeAlert`). */
  incidentsOf(tenant: string, bot: string, clock: Pick<Clock, 'now'>) {
    return {
      find: (postId: number) => this.incident(tenant, bot, postId),
      acknowledge: (postId: number, by: AlertAck['by']) => this.acknowledge(tenant, bot, postId, { by, at: clock.now() }),
    };
  }

  /**
   * Runs `work` alone for this group: in this process by queueing behind earlier work, across
   * replicas by a lock in the store (taken by another replica: `AlertsBusyError`, a 503 the tool retries).
   * A replica that dies holding it loses it at once with SQLite (its process is seen to be gone), after
   * the lock's 30 s with Redis (the 503's Retry-After).
   */
  async exclusive<T>(tenant: string, bot: string, key: string, work: () => Promise<T>): Promise<T> {
    const lockKey = `alerts-lock:${hashOf(`${tenant}\u0000${bot}\u0000${key}`)}`;
    const before = this.local.get(lockKey) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(() => this.claimed(lockKey, work));
    const tail = run.catch(() => undefined);
    this.local.set(lockKey, tail);
    try {
      return await run;
    } finally {
      if (this.local.get(lockKey) === tail) this.local.delete(lockKey);
    }
  }

  private async claimed<T>(lockKey: string, work: () => Promise<T>): Promise<T> {
    // a lock, not a mark: a replica that crashed while handling the group loses it at once (SQLite), and
    // the tool's retry is not answered busy for the rest of the TTL
    if (!(await this.store.claims.claim(lockKey, LOCK_TTL_MS, { lock: true }))) throw new AlertsBusyError();
    try {
      return await work();
    } finally {
      await this.store.claims.release(lockKey);
    }
  }

  private kv(tenant: string, bot: string): KvSpace {
    return this.store.kv(`alerts:${tenant}:${bot}`);
  }
}

/** Short stable hash for keys (group keys can be long and hold any character). */
export function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 20);
}

/** The kv key of a group's state. */
export function groupStateKey(input: string, groupKey: string): string {
  return `state:${input}:${hashOf(groupKey)}`;
}
