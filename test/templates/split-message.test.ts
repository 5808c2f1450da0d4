import { describe, expect, it } from 'vitest';
import { graphemesOf, measure, splitMessage, stripPartNumber } from '../../src/templates/split-message';
import { InvalidInputError } from '../../src/errors';
import { fixture } from '../alerts/load-fixture';

/** A small deterministic PRNG so the property test is repeatable (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['word', 'alert', ' ', ' ', '\n', '\n\n', '节点不可达', '🔥', '👩‍👩‍👧', 'é', 'ok', 'x'.repeat(37), '—', '\r\n'];

function randomText(next: () => number): string {
  const count = Math.floor(next() * 200);
  return Array.from({ length: count }, () => PIECES[Math.floor(next() * PIECES.length)] ?? '').join('');
}

/** Offsets at which a grapheme starts: a cut anywhere else would split one. */
function boundaries(text: string): Set<number> {
  const offsets = new Set<number>([0]);
  let offset = 0;
  for (const grapheme of graphemesOf(text)) offsets.add((offset += grapheme.length));
  return offsets;
}

describe('splitMessage', () => {
  it('keeps a message that fits as one part, unnumbered', () => {
    expect(splitMessage('short', { maxLength: 10, numbered: true })).toEqual(['short']);
  });

  it('cuts after line breaks first', () => {
    expect(splitMessage('first line\nsecond line\nthird', { maxLength: 24 })).toEqual(['first line\nsecond line\n', 'third']);
  });

  it('cuts after spaces when a line is too long', () => {
    expect(splitMessage('alpha beta gamma delta', { maxLength: 11 })).toEqual(['alpha beta ', 'gamma delta']);
  });

  it('hard-splits a single word longer than a part', () => {
    expect(splitMessage('abcdefghij', { maxLength: 4 })).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('numbers parts as (i/n) within the limit', () => {
    const parts = splitMessage('one two three four five six', { maxLength: 14, numbered: true });
    expect(parts[0]).toMatch(/^\(1\/\d\) /);
    expect(parts.at(-1)).toMatch(new RegExp(`^\\(${parts.length}/${parts.length}\\) `));
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(14);
    expect(parts.map(stripPartNumber).join('')).toBe('one two three four five six');
  });

  it('widens the numbering budget when the part count reaches two digits', () => {
    const text = 'word '.repeat(60);
    const parts = splitMessage(text, { maxLength: 16, numbered: true });
    expect(parts.length).toBeGreaterThanOrEqual(10);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(16);
    expect(parts.map(stripPartNumber).join('')).toBe(text);
  });

  it('never loses text, never exceeds the limit and never cuts a grapheme (property, 300 random cases)', () => {
    const next = random(20260820);
    for (let run = 0; run < 300; run++) {
      const text = randomText(next);
      const unit = next() < 0.5 ? 'chars' : 'bytes';
      // from 30: every grapheme here (at most 18 bytes) fits in a part beside a two-digit number
      const maxLength = 30 + Math.floor(next() * 120);
      const numbered = next() < 0.5;
      const parts = splitMessage(text, { maxLength, numbered, unit });
      const bodies = numbered ? parts.map(stripPartNumber) : parts;
      expect(bodies.join('')).toBe(text);
      for (const part of parts) expect(measure(part, unit)).toBeLessThanOrEqual(maxLength);
      const cuts = boundaries(text);
      let offset = 0;
      for (const body of bodies) expect(cuts.has((offset += body.length))).toBe(true);
    }
  });

  it("splits the storm's 3,917-character CJK and emoji description by UTF-8 bytes without loss", () => {
    const alerts = fixture('alertmanager-storm.json').alerts as Array<{ labels: Record<string, string>; annotations: Record<string, string> }>;
    const description = alerts.find((a) => a.labels.alertname === 'KubeNodeUnreachable')?.annotations.description ?? '';
    expect(description.length).toBe(3917);
    expect(Buffer.byteLength(description)).toBe(4637);
    const parts = splitMessage(description, { maxLength: 1000, unit: 'bytes', numbered: true });
    expect(parts.length).toBeGreaterThanOrEqual(5);
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(1000);
    expect(parts.map(stripPartNumber).join('')).toBe(description);
    for (const part of parts) expect(part).not.toMatch(/\uFFFD|[\uD800-\uDBFF]$/);
  });

  it('splits a grapheme by code point only when it alone is longer than a part, still losing nothing', () => {
    const family = '👩‍👩‍👧';
    const parts = splitMessage(`a${family}`, { maxLength: 4 });
    expect(parts.join('')).toBe(`a${family}`);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(4);
  });

  it('rejects a limit that cannot hold one character instead of looping', () => {
    expect(() => splitMessage('🔥🔥', { maxLength: 3, unit: 'bytes' })).toThrow(/maxLength/);
  });

  it('rejects a limit that leaves no room', () => {
    expect(() => splitMessage('abc', { maxLength: 0 })).toThrow(InvalidInputError);
    expect(() => splitMessage('abcdefghijkl', { maxLength: 6, numbered: true })).toThrow(/maxLength/);
  });
});
