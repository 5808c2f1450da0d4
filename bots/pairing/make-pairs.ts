import { createHash } from 'node:crypto';

/** A round: groups of two (one of three when the count is odd), as user ids. */
export type Round = number[][];

/** How many draws are tried before the one with the fewest repeated pairs is taken. */
const ATTEMPTS = 200;

/**
 * Pairs `ids` at random, reproducibly for a `seed`: everyone in exactly one group, groups of two and,
 * for an odd count, one of three. Pairs met in `recent` rounds are avoided: of up to 200 shuffles the
 * first without a repeat is taken, else the one with the fewest (a repeat beats leaving someone out).
 * Fewer than two people make no round. Groups are sorted, and so is each group, so the order of
 * `ids` does not matter.
 *
 * @example
 * makePairs([1, 2, 3, 4, 5], [[[1, 2], [3, 4, 5]]], '2026-12-07') // e.g. [[1, 3], [2, 4, 5]]: no 1-2, no 3-4
 */
export function makePairs(ids: readonly number[], recent: readonly Round[], seed: string): Round {
  const people = [...new Set(ids)].sort((a, b) => a - b);
  if (people.length < 2) return [];
  const met = metBefore(recent);
  const random = seededRandom(seed);
  let best: { round: Round; repeats: number } | undefined;
  for (let attempt = 0; attempt < ATTEMPTS && best?.repeats !== 0; attempt += 1) {
    const round = drawGreedily(shuffle(people, random), met);
    const repeats = round.reduce((n, group) => n + repeatsIn(group, met), 0);
    if (!best || repeats < best.repeats) best = { round, repeats };
  }
  return canonical(best?.round ?? []);
}

/** The pairs met in `rounds`, as `a:b` with a < b (a trio met as three pairs). */
export function metBefore(rounds: readonly Round[]): Set<string> {
  const met = new Set<string>();
  for (const round of rounds) for (const group of round) for (const [a, b] of pairsOf(group)) met.add(pairKey(a, b));
  return met;
}

/** A generator of numbers in [0, 1) from a seed (mulberry32 over the seed's SHA-256). */
export function seededRandom(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32BE(0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle(items: readonly number[], random: () => number): number[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as number, out[i] as number];
  }
  return out;
}

/** Takes people in order, each with the next one they have not met (else the next one); an odd last joins the group it has met least. */
function drawGreedily(order: readonly number[], met: Set<string>): Round {
  const pool = [...order];
  const round: Round = [];
  while (pool.length >= 2) {
    const a = pool.shift() as number;
    const fresh = pool.findIndex((b) => !met.has(pairKey(a, b)));
    const [b] = pool.splice(Math.max(0, fresh), 1);
    round.push([a, b as number]);
  }
  const last = pool[0];
  if (last !== undefined) {
    const costs = round.map((group) => group.filter((x) => met.has(pairKey(x, last))).length);
    const target = round[costs.indexOf(Math.min(...costs))];
    target?.push(last);
  }
  return round;
}

function repeatsIn(group: readonly number[], met: Set<string>): number {
  return pairsOf(group).filter(([a, b]) => met.has(pairKey(a, b))).length;
}

function pairsOf(group: readonly number[]): [number, number][] {
  return group.flatMap((a, i) => group.slice(i + 1).map((b): [number, number] => [a, b]));
}

function pairKey(a: number, b: number): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

function canonical(round: Round): Round {
  return round.map((group) => [...group].sort((a, b) => a - b)).sort((x, y) => (x[0] as number) - (y[0] as number));
}
