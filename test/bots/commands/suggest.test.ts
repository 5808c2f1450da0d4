import { describe, expect, it } from 'vitest';
import { suggest } from '../../../src/bots/commands/suggest';
import { editDistance } from '../../../src/did-you-mean';

const known = ['status', 'deploy', 'rollback', 'help'];

describe('suggest', () => {
  it('offers the closest known command for a typo', () => {
    expect(suggest('stauts', known)).toBe('status');
    expect(suggest('deplyo', known)).toBe('deploy');
    expect(suggest('rolback', known)).toBe('rollback');
    expect(suggest('HELP', known)).toBe('help');
  });

  it('offers the only command that starts with an abbreviation', () => {
    expect(suggest('roll', known)).toBe('rollback');
  });

  it('answers null when nothing is close', () => {
    expect(suggest('weather', known)).toBeNull();
    expect(suggest('x', known)).toBeNull();
    expect(suggest('', known)).toBeNull();
    expect(suggest('status', [])).toBeNull();
  });

  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
