import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors';
import { PLATFORM_SCOPES } from '../../src/proxy/platform-scopes';
import { createKeyRing, parseProxyConfig, presentedKey, SANDBOX_PROXY_KEY, scopesBeyondToken } from '../../src/proxy/proxy-keys';

const key = (name: string, scopes: string[] = ['read:walls'], extra: Record<string, unknown> = {}) => ({
  name,
  key: `${name}-key-0123456789abcdef`,
  scopes,
  ...extra,
});

describe('proxy key configuration', () => {
  it('defaults to no keys and a bot share of one half', () => {
    expect(parseProxyConfig(undefined)).toEqual({ keys: [], bot_share: 0.5, body_limit: 1_048_576 });
  });

  it('names the field of an unknown scope without echoing the key', () => {
    const attempt = () => parseProxyConfig({ keys: [key('ci', ['read:walls', 'read:wals'])] });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as ConfigError).key).toBe('proxy.keys.0.scopes.1');
      expect((error as Error).message).toContain('read:wals');
      expect((error as Error).message).not.toContain('ci-key-0123456789abcdef');
    }
  });

  it('refuses a short key, duplicate names and a share outside (0, 1]', () => {
    expect(() => parseProxyConfig({ keys: [{ name: 'a', key: 'short', scopes: ['*'] }] })).toThrow(/proxy\.keys\.0\.key/);
    expect(() => parseProxyConfig({ keys: [key('a'), { ...key('b'), name: 'a' }] })).toThrow(/proxy\.keys\.1\.name/);
    expect(() => parseProxyConfig({ bot_share: 0 })).toThrow(/proxy\.bot_share/);
    expect(() => parseProxyConfig({ bot_share: 1.5 })).toThrow(/proxy\.bot_share/);
  });

  it("accepts ['*'] as every scope but not '*' mixed with others", () => {
    expect(parseProxyConfig({ keys: [key('all', ['*'])] }).keys[0]?.scopes).toEqual(['*']);
    expect(() => parseProxyConfig({ keys: [key('mixed', ['*', 'read:walls'])] })).toThrow(ConfigError);
  });
});

describe('the key ring', () => {
  const config = parseProxyConfig({ keys: [key('dash', ['read:walls']), key('ops', ['*'], { tenants: ['acme'] })] });

  it('finds the caller of a configured key and nobody for anything else', () => {
    const ring = createKeyRing(config.keys, { mode: 'connected' });
    expect(ring.authenticate('dash-key-0123456789abcdef')).toMatchObject({ name: 'dash', tenants: 'all' });
    expect(ring.authenticate('ops-key-0123456789abcdef')).toMatchObject({ name: 'ops', scopes: 'all' });
    expect(ring.authenticate('dash-key-0123456789abcde')).toBeUndefined();
    expect(ring.authenticate('')).toBeUndefined();
    expect(ring.authenticate(undefined)).toBeUndefined();
  });

  it('holds the sandbox key, with every scope, in sandbox mode only', () => {
    expect(createKeyRing([], { mode: 'sandbox' }).authenticate(SANDBOX_PROXY_KEY)).toMatchObject({ scopes: 'all', tenants: 'all' });
    expect(createKeyRing(config.keys, { mode: 'connected' }).authenticate(SANDBOX_PROXY_KEY)).toBeUndefined();
  });

  it('keeps no key in clear text', () => {
    const ring = createKeyRing(config.keys, { mode: 'connected' });
    expect(JSON.stringify(ring)).not.toContain('dash-key');
    expect(JSON.stringify(ring.authenticate('dash-key-0123456789abcdef'))).not.toContain('dash-key');
  });
});

describe('presentedKey', () => {
  it('reads Authorization: Bearer and X-Proxy-Key, X-Proxy-Key first', () => {
    expect(presentedKey({ authorization: 'Bearer abc' })).toBe('abc');
    expect(presentedKey({ authorization: 'bearer  abc ' })).toBe('abc');
    expect(presentedKey({ 'x-proxy-key': 'xyz', authorization: 'Bearer abc' })).toBe('xyz');
    expect(presentedKey({ authorization: 'Basic abc' })).toBeUndefined();
    expect(presentedKey({})).toBeUndefined();
  });
});

describe('scopesBeyondToken', () => {
  it("lists the key's scopes the token lacks, measuring * against every platform scope", () => {
    expect(scopesBeyondToken({ name: 'ci', key: 'k'.repeat(16), scopes: ['read:walls', 'write:posts'] }, ['read:walls'])).toEqual(['write:posts']);
    expect(scopesBeyondToken({ name: 'ci', key: 'k'.repeat(16), scopes: ['read:walls'] }, ['read:walls', 'read:posts'])).toEqual([]);
    expect(scopesBeyondToken({ name: 'all', key: 'k'.repeat(16), scopes: ['*'] }, PLATFORM_SCOPES.slice(1))).toEqual([PLATFORM_SCOPES[0]]);
  });
});
