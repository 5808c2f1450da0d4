/**
 * A small seeded PRNG (mulberry32) for generated tests: the same seed gives the same cases, so a
 * failure names its seed and can be run again exactly (`FUZZ_SEED=<seed> npx vitest run <file>`).
 */
export interface SeededRandom {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** One item of `items`. */
  pick<T>(items: readonly T[]): T;
}

export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { seed, next, int, pick: (items) => items[int(items.length)]! };
}

/** The seed of a generated test: `FUZZ_SEED` when set (to replay a failure), else `fallback`. */
export function fuzzSeed(fallback: number): number {
  const given = process.env.FUZZ_SEED;
  return given === undefined || given === '' ? fallback : Number(given) >>> 0;
}
