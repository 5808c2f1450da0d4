import { describe, expect, it } from 'vitest';
import { apiRoot, apiUrl } from '../../../src/api/api-url';
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
});
