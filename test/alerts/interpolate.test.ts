import { describe, expect, it } from 'vitest';
import { interpolate, templatePaths } from '../../src/alerts/interpolate';

describe('interpolate', () => {
  it('uses the first non-empty alternative and quoted literals', () => {
    expect(interpolate('{{a || b || "none"}}', { a: '', b: 'B' })).toBe('B');
    expect(interpolate('{{a || "none"}}', {})).toBe('none');
  });

  it('prints numbers and booleans, and objects as JSON', () => {
    expect(interpolate('{{n}}/{{t}}/{{o}}', { n: 0, t: false, o: { x: 1 } })).toBe('0/false/{"x":1}');
  });

  it('evaluates nothing: an expression is just an unknown path', () => {
    expect(interpolate('{{process.exit(1)}}{{1+1}}', { process: {} })).toBe('');
  });

  it('lists the paths a template reads', () => {
    expect(templatePaths('[{{a.b}}] {{c || "x"}}')).toEqual(['a.b', 'c']);
  });
});
