// Issue #24, item 2: the sandbox has a short index (what it is, its API and token, the main control routes),
// not a JSON 404. Since issue #29 the address itself opens the playground (playground.test.ts), which
// links the index at /about; a caller asking for JSON still gets the index at the address itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { rawHttp } from '../helpers/raw-http';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('the sandbox index page', () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await createSandbox({ clock: new AdjustableClock(), port: 0, seed: 'empty' });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('answers a browser with an HTML index naming the API, the seeded token and the control routes', async () => {
    const res = await fetch(`${sandbox.baseUrl}/about`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<title>intrabot sandbox</title>');
    expect(html).toContain(`${sandbox.baseUrl}/api/open/v1`);
    expect(html).toContain('svc_sandbox_token');
    for (const path of ['/_sandbox/clock', '/_sandbox/deliveries', '/_sandbox/coverage']) expect(html).toContain(`<a href="${path}">`);
    for (const path of ['/_sandbox/reset', '/_sandbox/users/:id/posts', '/_sandbox/tokens']) expect(html).toContain(path);
    expect(html).toMatch(/<caption>[^<]+<\/caption>/);
  });

  it('links only GET routes that exist: each answers 200', async () => {
    const html = await (await fetch(`${sandbox.baseUrl}/about`)).text();
    const links = [...html.matchAll(/<a href="(\/[^"]+)">/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(5);
    for (const link of new Set(links)) {
      // the `empty` seed has no named refs (404 by design, docs/sandbox.md); the route is there all the same
      const res = await fetch(`${sandbox.baseUrl}${link}`);
      expect([200, ...(link === '/_sandbox/refs' ? [404] : [])], link).toContain(res.status);
    }
  });

  it('answers a caller asking for JSON with the same index as JSON, at /about and at the address itself', async () => {
    const about = await fetch(`${sandbox.baseUrl}/about`, { headers: { accept: 'application/json' } });
    const res = await fetch(`${sandbox.baseUrl}/`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(await about.json()).toEqual(await res.clone().json());
    const index = (await res.json()) as { api: { base_url: string; token: string }; control: { routes: { method: string; path: string }[] } };
    expect(index.api).toMatchObject({ base_url: `${sandbox.baseUrl}/api/open/v1`, token: 'svc_sandbox_token' });
    expect(index.control.routes).toContainEqual(expect.objectContaining({ method: 'POST', path: '/_sandbox/clock' }));
  });

  it('escapes the Host it echoes: a crafted Host header cannot put markup into the page', async () => {
    const res = await rawHttp(`${sandbox.baseUrl}/about`, { headers: { host: 'x"><script>alert(1)</script>' } });
    expect(res.status).toBe(200);
    expect(res.body).not.toContain('<script>');
  });
});
