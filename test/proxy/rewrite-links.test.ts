import { describe, expect, it } from 'vitest';
import { rewriteLink, rewriteLinks } from '../../src/proxy/rewrite-links';

const PLATFORM = 'https://acme.example/api/open/v1';
const PROXY = 'http://127.0.0.1:3000/t/acme/api/open/v1';

describe('rewriteLink', () => {
  it.each([
    [`${PLATFORM}/walls?page=2`, `${PROXY}/walls?page=2`],
    [`${PLATFORM}?page=2`, `${PROXY}?page=2`],
    [PLATFORM, PROXY],
    ['https://acme.example/api/open/v10/walls', 'https://acme.example/api/open/v10/walls'],
    ['https://evil.example/api/open/v1/walls', 'https://evil.example/api/open/v1/walls'],
    ['https://acme.example/other', 'https://acme.example/other'],
  ])('%s -> %s', (link, expected) => {
    expect(rewriteLink(link, PLATFORM, PROXY)).toBe(expected);
  });

  it('ignores a trailing slash on either root', () => {
    expect(rewriteLink(`${PLATFORM}/walls`, `${PLATFORM}/`, `${PROXY}/`)).toBe(`${PROXY}/walls`);
  });
});

describe('rewriteLinks', () => {
  it('rewrites every string of links and keeps nulls, data and meta (spec: Pagination)', () => {
    const body = {
      data: [{ url: `${PLATFORM}/media/1` }],
      links: { first: `${PLATFORM}/walls?page=1`, prev: null, next: `${PLATFORM}/walls?page=2` },
      meta: { total: 3 },
    };
    expect(rewriteLinks(body, PLATFORM, PROXY)).toEqual({
      data: [{ url: `${PLATFORM}/media/1` }],
      links: { first: `${PROXY}/walls?page=1`, prev: null, next: `${PROXY}/walls?page=2` },
      meta: { total: 3 },
    });
    expect(body.links.next).toBe(`${PLATFORM}/walls?page=2`);
  });

  it('leaves bodies without a links object alone', () => {
    for (const body of [null, 'text', [1], { data: {} }, { links: 'x' }]) expect(rewriteLinks(body, PLATFORM, PROXY)).toBe(body);
  });
});
