import { createHash } from 'node:crypto';
import { z } from 'zod';
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
  /**
   * The group's labels: Alertmanager's group labels, else the labels its alerts share. Matchers that
   * silence the group (an acknowledgement may, in the alerts bot).
   */
  labels: z.record(z.string(), z.string()).optional(),
});
export type GroupState = z.infer<typeof GroupStateSchema>;

/** What a firing post reported (the refs of its alerts) and which of them resolved since; where it is and what it said, to edit it. */
export const PostRecordSchema = z.object({
  refs: z.array(z.string()).min(1),
  resolved: z.array(z.string()),
  wallId: z.number().optional(),
  /** The post's text as it was created: edits add status lines under it. */
  text: z.string().optional(),
  /** The group's state key: the lock its dispatch holds, which an acknowledgement takes too. */
  group: z.string().optional(),
});
export type PostRecord = z.infer<typeof PostRecordSchema>;

/** What the sender knows of a firing post it created, besides its refs (`recordPost`). */
export type FiringPost = Pick<PostRecord, 'wallId' | 'text' | 'group'>;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Longer than dedupe's 7-day retention, so a state is never forgotten while dedupe still counts on it. */
const STATE_TTL_MS = 8 * DAY_MS;
/** An incident may stay open for weeks; its resolution should still answer the post. */
export const REF_TTL_MS = 30 * DAY_MS;
const LOCK_TTL_MS = 30_000;

/**
 * The alert inputs' memory in the store, one kv namespace per tenant and bot (`alerts:<tenant>:<bot>`):
 * - `state:<input>:<group hash>`: the dedupe state of a group (`GroupState`);
 * - `ref:<input>:<target>:<fingerprint>:<started>`: the id of the post that reported an alert firing;
 * - `post:<post id>`: what a firing post reported, and which of it resolved since (`PostRecord`);
 * - `ack:<post id>`: who acknowledged it (`IncidentPosts`).
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
  async recordPost(tenant: string, bot: string, refKeys: readonly string[], postId: number, post: FiringPost = {}): Promise<void> {
    const kv = this.kv(tenant, bot);
    for (const refKey of new Set(refKeys)) await kv.set(`ref:${refKey}`, postId, { ttlMs: REF_TTL_MS });
    const record: PostRecord = { refs: [...new Set(refKeys)], resolved: [], ...post };
    await kv.set(`post:${postId}`, record as unknown as JsonValue, { ttlMs: REF_TTL_MS });
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

  /** Takes `key` for `ttlMs`: true for exactly one caller across replicas until then. */
  claimOnce(key: string, ttlMs: number): Promise<boolean> {
    return this.store.claims.claim(key, ttlMs);
  }

  /** The kv space of one bot's inputs on a tenant (`IncidentPosts` keeps its records there too). */
  kv(tenant: string, bot: string): KvSpace {
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
