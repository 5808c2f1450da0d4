import type { Clock } from '../clock';

/** A window of the proxy's own spend: at most `limit` takes within any `windowMs`. */
export interface ShareWindow {
  limit: number;
  windowMs: number;
}

export interface ShareDecision {
  ok: boolean;
  /** When not ok: how long until a take can succeed. */
  waitMs: number;
  /** Takes left in the window after this one, when the budget can tell. */
  remaining?: number;
}

/**
 * Where the proxy counts its own calls per tenant. `store.rate` (the store's `SharedRateBudget`)
 * fits, and shares the count across replicas; the default is `MemoryShareBudget`, per process.
 */
export interface ShareBudget {
  take(key: string, window: ShareWindow): Promise<ShareDecision>;
}

/**
 * The part of a token's budget the proxy may use while the bots have work queued
 * (the bots come first): `share` of `limit`, at least one request.
 *
 * @example proxyShare(60, 0.5) // 30
 */
export function proxyShare(limit: number, share: number): number {
  return Math.max(1, Math.floor(limit * share));
}

/** A sliding-window log per key, on the injected clock. */
export class MemoryShareBudget implements ShareBudget {
  private readonly logs = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  async take(key: string, window: ShareWindow): Promise<ShareDecision> {
    const now = this.clock.now();
    const log = (this.logs.get(key) ?? []).filter((at) => at > now - window.windowMs);
    this.logs.set(key, log);
    if (log.length >= window.limit) {
      const oldest = log[log.length - window.limit] ?? now;
      return { ok: false, waitMs: Math.max(1, oldest + window.windowMs - now), remaining: 0 };
    }
    log.push(now);
    return { ok: true, waitMs: 0, remaining: window.limit - log.length };
  }
}
