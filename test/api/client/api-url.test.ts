import { describe, expect, it } from 'vitest';
import { ApiPathError } from '../../../src/api/api-path';
import { apiRoot, apiUrl } from '../../../src/api/api-url';
import { endpointPath } from '../../../src/api/request-payload';
import { endpoints } from '../../../src/api/schemas';
import { ConfigError } from '../../../src/errors';

describe('API URLs (spec: every path is relative to {base_url}/api/open/v1)', () => {
  it('adds /api/open/v1 to the host, once', () => {
    expect(apiRoot('https://acme.example').href).toBe('https://acme.example/api/open/v1');
    expect(apiRoot('https://acme.example/').href).toBe('https://acme.example/api/open/v1');
    expect(apiRoot('https://acme.example/api/open/v1/').href).toBe('https://acme.example/api/open/v1');
  });

  it('keeps a path prefix of the base, such as a proxy tenant', () => {
    expect(apiRoot('http://localhost:3000/t/acme').href).toBe('http://localhost:3000/t/acme/api/open/v1');
  });

  it('refuses a base that is not an http(s) URL, naming the key', () => {
    expect(() => apiRoot('acme.example')).toThrow(ConfigError);
    expect(() => apiRoot('ftp://acme.example')).toThrow(/http or https/);
  });

  it('joins a path with or without the prefix, keeping its own query and adding the given one', () => {
    const root = apiRoot('https://acme.example');
    expect(apiUrl(root, '/walls/3/posts').href).toBe('https://acme.example/api/open/v1/walls/3/posts');
    expect(apiUrl(root, 'walls').href).toBe('https://acme.example/api/open/v1/walls');
    expect(apiUrl(root, '/api/open/v1/walls?page=2', { per_page: 50 }).href).toBe('https://acme.example/api/open/v1/walls?page=2&per_page=50');
  });

  it('drops undefined and null query values and sends arrays comma-separated (spec: Statistics, group_ids)', () => {
    const url = apiUrl(apiRoot('https://acme.example'), '/stats/adoption', { a: undefined, b: null, group_ids: [1, 2], on: true });
    expect(url.search).toBe('?group_ids=1%2C2&on=true');
  });

  it('refuses an object as a query value, naming it', () => {
    expect(() => apiUrl(apiRoot('https://acme.example'), '/users', { filter: { a: 1 } })).toThrow(/query\.filter/);
  });

  it('cannot be steered to another host by the path', () => {
    expect(apiUrl(apiRoot('https://acme.example'), '//evil.example/x').origin).toBe('https://acme.example');
  });

  it.each([
    ['a backslash', '/walls/..\\..\\..\\_sandbox\\clock'],
    ['dot segments', '/walls/../../_sandbox/reset'],
    ['encoded dot segments', '/walls/%2e%2E/.%2e/_sandbox'],
    ['an encoded backslash', '/incoming/..%5c..%5C_sandbox%5creset'],
    ['a double-encoded backslash', '/incoming/..%255c..%255c_sandbox'],
    ['double-encoded dots and slashes', '/walls/%252e%252e%252f%252e%252e%252f_sandbox'],
    ['an encoded slash', '/walls/1%2Fposts'],
    ['a tab the parser would drop', '/walls/.\t./x'],
    ['a full-width dot segment', '/walls/%EF%BC%8E%EF%BC%8E/x'],
    ['a segment cut at ;', '/walls/..;/x'],
  ])('never builds a URL outside the API root: refuses %s, naming path', (_name, path) => {
    const root = apiRoot('https://acme.example/t/acme');
    expect(() => apiUrl(root, path)).toThrow(ApiPathError);
    expect(() => apiUrl(root, path)).toThrow(/^path: /);
  });

  it('drops a fragment rather than let the parser resolve the dot segments after it', () => {
    expect(apiUrl(apiRoot('https://acme.example'), '/walls/x#/../../..').href).toBe('https://acme.example/api/open/v1/walls/x');
  });

  it('refuses a path parameter that would become a dot segment, naming the parameter', () => {
    expect(() => endpointPath(endpoints['incomingWebhooks.send'], { token: '..' })).toThrow(/^params\.token: /);
    expect(() => endpointPath(endpoints['incomingWebhooks.send'], { token: '%2e%2e' })).toThrow(/^params\.token: /);
    expect(endpointPath(endpoints['incomingWebhooks.send'], { token: 'abc_DEF-123' })).toBe('/incoming/abc_DEF-123');
  });
});
