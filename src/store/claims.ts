import { z } from 'zod';

export const ClaimKeySchema = z.string().min(1);
export const TtlMsSchema = z.number().int().positive();

export const ClaimOptionsSchema = z.object({
  /**
   * A lock held while work runs (provisioning, a running job), rather than a mark that something
   * happened (a cron slot): when the holder's process is known to be gone, the claim is taken over at
   * once instead of after its TTL. Known to the SQLite store (every process sharing its file runs on one
   * host, so a process id and its start can be checked, a restarted container's new process 1 included:
   * see `ownerIsGone`); the Redis store's replicas run on several hosts, and such a
   * claim lasts until its TTL there, so keep it short and renew it.
   */
  lock: z.boolean().default(false),
});
export type ClaimOptions = z.input<typeof ClaimOptionsSchema>;

/**
 * Keys taken once, atomically across replicas, for a while. A cron slot is claimed with key
 * `cron:<tenant>:<bot>:<job>:<slot>` and a TTL longer than any catch-up window, so it runs once;
 * provisioning leadership is a short lock renewed while the leader works, so a leader that died frees it
 * within seconds (at once with SQLite, where its process is seen to be gone).
 *
 * A claim belongs to the store instance that took it (each process opens its own), so only the owner can
 * renew or release it.
 *
 * @example
 * if (await store.claims.claim(`cron:${tenant}:${bot}:${job}:${slot}`, 24 * 3_600_000)) await runJob();
 * if (await store.claims.claim(`provision:${tenant}`, 15_000, { lock: true })) await provisionRenewing();
 */
export interface Claims {
  /** True for exactly one caller until the claim expires or is released (or, for a lock, its holder is gone). */
  claim(key: string, ttlMs: number, options?: ClaimOptions): Promise<boolean>;
  /** Extend a claim this store holds; false when it is not (or no longer) ours. */
  renew(key: string, ttlMs: number): Promise<boolean>;
  /** Give up a claim this store holds; false when it is not ours. */
  release(key: string): Promise<boolean>;
}
