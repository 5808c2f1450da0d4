import { describe, expect, it } from 'vitest';
import { MalformedEnvRefError, MissingEnvRefError, maskEnvRefs, resolveEnvRefs, unmaskEnvRefs } from '../../src/bots/env-refs';

describe('env refs', () => {
  it('replaces ${env:NAME} with the variable', () => {
    expect(resolveEnvRefs('Bearer ${env:TOKEN}', { TOKEN: 'abc' })).toBe('Bearer abc');
  });

  it('uses the default only when the variable is unset, and an empty variable counts as set', () => {
    expect(resolveEnvRefs('${env:PORT:-8080}', {})).toBe('8080');
    expect(resolveEnvRefs('${env:PORT:-8080}', { PORT: '9000' })).toBe('9000');
    expect(resolveEnvRefs('[${env:EMPTY:-x}]', { EMPTY: '' })).toBe('[]');
    expect(resolveEnvRefs('[${env:NONE:-}]', {})).toBe('[]');
  });

  it('throws for a missing variable without a default, naming it and its line', () => {
    const masked = maskEnvRefs('a: 1\nb: ${env:SECRET_A}\n');
    expect(() => unmaskEnvRefs(masked.text, masked.refs, {})).toThrow(MissingEnvRefError);
    expect(masked.refs).toEqual([{ name: 'SECRET_A', fallback: undefined, line: 2 }]);
  });

  it('never re-reads a substituted value as a reference', () => {
    expect(resolveEnvRefs('${env:A}', { A: '${env:B}', B: 'leak' })).toBe('${env:B}');
  });

  it('leaves text that only looks like a reference alone', () => {
    expect(resolveEnvRefs('${ENV:A} $env:A {env:A}', { A: 'x' })).toBe('${ENV:A} $env:A {env:A}');
  });

  it('refuses a reference that is not closed, or whose name is no variable name, instead of keeping it as text', () => {
    expect(() => resolveEnvRefs('Bearer ${env:TOKEN', { TOKEN: 'abc' })).toThrow(MalformedEnvRefError);
    expect(() => resolveEnvRefs('Bearer ${env:TOKEN', {})).toThrow(/unclosed environment reference "\$\{env:TOKEN"/);
    expect(() => resolveEnvRefs('${env:1A}', { A: 'x' })).toThrow(/malformed environment reference "\$\{env:1A\}"/);
  });

  it('keeps line numbers when masking', () => {
    const source = 'x: ${env:A}\ny: |\n  ${env:B}\n';
    expect(maskEnvRefs(source).text.split('\n').length).toBe(source.split('\n').length);
  });
});
