import { describe, expect, it } from 'vitest';
import { closestName, didYouMean, editDistance } from '../src/did-you-mean';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours as one edit each', () => {
    expect(editDistance('reply', 'reply')).toBe(0);
    expect(editDistance('replly', 'reply')).toBe(1);
    expect(editDistance('rely', 'reply')).toBe(1);
    expect(editDistance('raply', 'reply')).toBe(1);
    expect(editDistance('rpely', 'reply')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('closestName', () => {
  const manifestKeys = ['name', 'display_name', 'events', 'schedules', 'reply', 'react_to_bots', 'config'];

  it('suggests the known name a typo is closest to', () => {
    expect(closestName('replly_to_bots', manifestKeys)).toBe('react_to_bots');
    expect(closestName('shedules', manifestKeys)).toBe('schedules');
    expect(closestName('Config', manifestKeys)).toBe('config');
  });

  it('suggests nothing for a word that is no typo of any known name', () => {
    expect(closestName('webhooks', manifestKeys)).toBeUndefined();
    expect(closestName('x', [])).toBeUndefined();
  });

  it('says "did you mean" only when there is something to suggest', () => {
    expect(didYouMean('digets', ['digest', 'greet'])).toBe(' (did you mean "digest"?)');
    expect(didYouMean('zzz', ['digest'])).toBe('');
  });
});
