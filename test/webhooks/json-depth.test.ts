import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, exceedsJsonDepth } from '../../src/webhooks/json-depth';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('exceedsJsonDepth', () => {
  it('counts nested arrays and objects, each a level', () => {
    expect(exceedsJsonDepth(bytes('{"a":[{"b":[1]}]}'), 4)).toBe(false);
    expect(exceedsJsonDepth(bytes('{"a":[{"b":[1]}]}'), 3)).toBe(true);
    expect(exceedsJsonDepth(bytes('1'), 0)).toBe(false);
    expect(exceedsJsonDepth(bytes('[]'), 0)).toBe(true);
  });

  it('counts siblings once: depth is how deep, not how many', () => {
    expect(exceedsJsonDepth(bytes(`[${'[1],'.repeat(1_000)}[2]]`), 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes and backslashes included', () => {
    expect(exceedsJsonDepth(bytes('{"a":"[[[[{{{{"}'), 1)).toBe(false);
    expect(exceedsJsonDepth(bytes('{"a":"say \\"[[[\\" ok","b":"\\\\"}'), 1)).toBe(false);
    expect(exceedsJsonDepth(bytes('{"a":"\\\\","b":[[1]]}'), 2)).toBe(true);
  });

  it('reads multi-byte UTF-8 text as it is', () => {
    expect(exceedsJsonDepth(bytes('{"a":"café 日本 [","b":{"c":"🎉"}}'), 2)).toBe(false);
  });

  it('answers for a 100,000-level body without recursing', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(exceedsJsonDepth(bytes(deep), MAX_JSON_DEPTH)).toBe(true);
    expect(exceedsJsonDepth(bytes(`[${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH)}`), MAX_JSON_DEPTH)).toBe(false);
  });
});
