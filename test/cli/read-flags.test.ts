import { describe, expect, it } from 'vitest';
import { readFlags } from '../../src/cli/read-flags';

const OPTIONS = { json: { type: 'boolean' }, limit: { type: 'string' }, port: { type: 'string', short: 'p' } } as const;

describe('readFlags', () => {
  it('reads flags and positionals', () => {
    const parsed = readFlags(['list', '--limit', '5', '--json', '-p', '4010'], OPTIONS);
    expect(parsed).toMatchObject({ values: { limit: '5', json: true, port: '4010' }, positionals: ['list'] });
  });

  it('says an unknown flag in our words, with the closest one', () => {
    expect(readFlags(['--jsno'], OPTIONS)).toBe('unknown flag --jsno; did you mean --json?');
    expect(readFlags(['--zzzzzz'], OPTIONS)).toBe('unknown flag --zzzzzz (the flags are --json, --limit, --port)');
    expect(readFlags(['-q'], OPTIONS)).toMatch(/^unknown flag -q/);
    expect(readFlags(['--x'], {})).toBe('unknown flag --x (it takes no flags)');
  });

  it('names a flag missing its value, or given one it does not take', () => {
    expect(readFlags(['--limit'], OPTIONS)).toBe('--limit needs a value');
    expect(readFlags(['--limit', '-5'], OPTIONS)).toBe('--limit needs a value (one starting with "-" is written --limit=-5)');
    expect(readFlags(['--json=yes'], OPTIONS)).toBe('--json takes no value');
  });
});
