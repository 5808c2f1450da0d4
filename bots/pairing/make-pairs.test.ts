import { describe, expect, it } from 'vitest';
import { makePairs, metBefore, seededRandom } from './make-pairs';

const TEN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

function everyoneOnce(round: number[][]): number[] {
  return round.flat().sort((a, b) => a - b);
}

describe('makePairs', () => {
  it('gives the same pairs for the same seed, and other pairs for another seed', () => {
    expect(makePairs(TEN, [], '2026-12-07')).toEqual(makePairs(TEN, [], '2026-12-07'));
    expect(makePairs(TEN, [], '2026-12-07')).not.toEqual(makePairs(TEN, [], '2026-12-14'));
  });

  it('does not depend on the order the people come in', () => {
    expect(makePairs([...TEN].reverse(), [], 'seed')).toEqual(makePairs(TEN, [], 'seed'));
  });

  it('puts everyone in exactly one pair', () => {
    const round = makePairs(TEN, [], 'seed');
    expect(round.map((g) => g.length)).toEqual([2, 2, 2, 2, 2]);
    expect(everyoneOnce(round)).toEqual(TEN);
  });

  it('makes one group of three for an odd count', () => {
    const round = makePairs([1, 2, 3, 4, 5, 6, 7], [], 'seed');
    expect(round.map((g) => g.length).sort()).toEqual([2, 2, 3]);
    expect(everyoneOnce(round)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(makePairs([1, 2, 3], [], 'seed')).toEqual([[1, 2, 3]]);
  });

  it('makes no round of fewer than two people', () => {
    expect(makePairs([], [], 'seed')).toEqual([]);
    expect(makePairs([7], [], 'seed')).toEqual([]);
    expect(makePairs([7, 7], [], 'seed')).toEqual([]);
  });

  it('avoids the pairs of the recent rounds when it can', () => {
    const recent = [
      [
        [1, 2],
        [3, 4],
      ],
      [
        [1, 3],
        [2, 4],
      ],
    ];
    // the only draw of four without a repeat
    for (const seed of ['a', 'b', 'c', 'd']) {
      expect(makePairs([1, 2, 3, 4], recent, seed)).toEqual([
        [1, 4],
        [2, 3],
      ]);
    }
  });

  it('avoids everyone a trio met, too', () => {
    const met = metBefore([[[1, 2, 3]]]);
    expect([...met].sort()).toEqual(['1:2', '1:3', '2:3']);
    for (const seed of ['a', 'b', 'c']) {
      const round = makePairs([1, 2, 3, 4, 5, 6], [[[1, 2, 3]]], seed);
      for (const group of round) expect(group.filter((x) => x <= 3)).toHaveLength(1);
    }
  });

  it('repeats a pair rather than leave someone out when every pair has met', () => {
    expect(makePairs([1, 2], [[[1, 2]]], 'seed')).toEqual([[1, 2]]);
  });

  it('over many weeks of ten people, no pair meets again within the rounds it avoids', () => {
    const history: number[][][] = [];
    for (let week = 0; week < 8; week += 1) {
      const recent = history.slice(-4);
      const round = makePairs(TEN, recent, `week-${week}`);
      const met = metBefore(recent);
      for (const [a, b] of round) expect(met.has(`${Math.min(a!, b!)}:${Math.max(a!, b!)}`)).toBe(false);
      history.push(round);
    }
  });
});

it('seededRandom is reproducible and in [0, 1)', () => {
  const a = seededRandom('x');
  const b = seededRandom('x');
  const draws = Array.from({ length: 100 }, () => a());
  expect(draws).toEqual(Array.from({ length: 100 }, () => b()));
  expect(draws.every((n) => n >= 0 && n < 1)).toBe(true);
});
