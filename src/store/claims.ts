import { z } from 'zod';

export const ClaimKeySchema = z.string().min(1);
export const TtlMsSchema = z.number().int().positive();

/**
 * Keys taken once, atomically across replicas, for a while. A cron slot is claimed with key
 * `cron:<tenant>:<bot>:<job>:<slot>` and a TTL longer than any catch-up window, so it runs once;
 * provisioning leadership is a claim renewed while the leader lives.
 *
 * A claim belongs to the store instance that took it (each process opens its own), so only the owner can
 * renew or release it.
 *
 * @example
 * if (await store.claims.claim(`cron:${tenant}:${bot}:${job}:${slot}`, 24 * 3_600_000)) await runJob();
 */
export interface Claims {
  /** True for exactly one caller until the claim expires or is released. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Extend a claim this store holds; false when it is not (or no longer) ours. */
  renew(key: string, ttlMs: number): Promise<boolean>;
  /** Give up a claim this store holds; false when it is not ours. */
  release(key: string): Promise<boolean>;
}
