import type { Clock } from '../../src/clock';
import type { SharedRateBudget } from '../../src/store/rate-budget';

export interface GrantRecorder {
  /** `rate`, recording each grant at the slot the store gave it, per key. */
  wrap(rate: SharedRateBudget): SharedRateBudget;
  /** The grants of `key`, oldest first. */
  grants(key: string): number[];
  keys(): string[];
}

/**
 * Records when the shared budget lets each request out, on the injected clock: a take that is ok goes
 * out `waitMs` after the clock's reading when it was asked (both stores read the clock as the take
 * starts, before any await).
 */
export function recordGrants(clock: Clock): GrantRecorder {
  const byKey = new Map<string, number[]>();
  return {
    wrap: (rate) => ({
      take: async (key, window) => {
        const at = clock.now();
        const decision = await rate.take(key, window);
        if (decision.ok) byKey.set(key, [...(byKey.get(key) ?? []), at + decision.waitMs]);
        return decision;
      },
      observe: (key, observation) => rate.observe(key, observation),
    }),
    grants: (key) => [...(byKey.get(key) ?? [])].sort((a, b) => a - b),
    keys: () => [...byKey.keys()],
  };
}

/** The most grants in any closed stretch of `spanMs` (a window starting at a grant is the fullest). */
export function fullestWindow(grants: readonly number[], spanMs: number): number {
  return Math.max(...grants.map((start) => grants.filter((t) => t >= start && t <= start + spanMs).length));
}

/** The gaps between consecutive grants (sorted). */
export function gapsOf(grants: readonly number[]): number[] {
  const sorted = [...grants].sort((a, b) => a - b);
  return sorted.slice(1).map((t, i) => t - (sorted[i] ?? 0));
}
