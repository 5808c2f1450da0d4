import { describe, expect, it } from 'vitest';
import { normalizeName, parseKudos } from './parse-kudos';

describe('parseKudos', () => {
  it.each([
    ['Ada Lovelace for shipping the release', { name: 'Ada Lovelace', qualifier: undefined, reason: 'shipping the release' }],
    ['  Ada   Lovelace   FOR  the demo ', { name: 'Ada Lovelace', qualifier: undefined, reason: 'the demo' }],
    ['Ada Lovelace for fixing it for everyone', { name: 'Ada Lovelace', qualifier: undefined, reason: 'fixing it for everyone' }],
    ['"Forrest Fortune" for the offsite', { name: 'Forrest Fortune', qualifier: undefined, reason: 'the offsite' }],
    ['“Ada Lovelace” helping out', { name: 'Ada Lovelace', qualifier: undefined, reason: 'helping out' }],
    ['Ada Lovelace (Sales) for the pitch', { name: 'Ada Lovelace', qualifier: 'Sales', reason: 'the pitch' }],
    ['"Ada Lovelace (ada2@example.com)" for the pitch', { name: 'Ada Lovelace', qualifier: 'ada2@example.com', reason: 'the pitch' }],
  ])('reads %j', (text, expected) => {
    expect(parseKudos(text)).toEqual(expected);
  });

  it.each([[''], ['Ada Lovelace'], ['for the release'], ['Ada Lovelace for '], ['"Ada Lovelace"']])(
    'refuses %j: a name and a reason are both needed',
    (text) => {
      expect(parseKudos(text)).toBeUndefined();
    },
  );
});

describe('normalizeName', () => {
  it('ignores case, accents and repeated spaces', () => {
    expect(normalizeName('  Zoë  WEBER ')).toBe('zoe weber');
    expect(normalizeName('José Núñez')).toBe(normalizeName('jose nunez'));
  });
});
