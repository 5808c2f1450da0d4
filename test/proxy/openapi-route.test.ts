import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endpointList } from '../../src/api/schemas/endpoints';
import { renderDocsPage, escapeHtml } from '../../src/proxy/docs-page';
import { registerOpenApiRoutes } from '../../src/proxy/openapi-route';

describe('GET /openapi.json and GET /docs', () => {
  let app = Fastify();
  beforeEach(() => {
    app = Fastify();
  });
  afterEach(async () => app.close());

  it('serves a document that lists every catalogue path, with the runtime as its server', async () => {
    await registerOpenApiRoutes(app);
    const res = await app.inject({ method: 'GET', url: '/openapi.json', headers: { host: 'intrabot.test:3000' } });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ servers: { url: string }[]; paths: Record<string, Record<string, unknown>> }>();
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://intrabot.test:3000/api/open/v1' })]);
    for (const endpoint of endpointList) expect(doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()], endpoint.id).toBeDefined();
  });

  it('uses the configured public URL as the server when given one', async () => {
    await registerOpenApiRoutes(app, { publicUrl: 'https://bots.acme.example/' });
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{ servers: { url: string }[] }>();
    expect(doc.servers[0]?.url).toBe('https://bots.acme.example/api/open/v1');
  });

  it('serves /docs as a self-contained HTML page naming every path and scope', async () => {
    await registerOpenApiRoutes(app);
    const res = await app.inject({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.body;
    for (const endpoint of endpointList) expect(html, endpoint.id).toContain(`<code>${escapeHtml(endpoint.path)}</code>`);
    expect(html).toContain('<code>write:media</code>');
    // no external assets: the machine serving it may have no internet
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)="https?:/);
  });
});

describe('renderDocsPage', () => {
  it('escapes text from the document', () => {
    const html = renderDocsPage({ info: { title: '<b>x</b>' }, paths: { '/a': { get: { summary: '<script>', tags: ['T'] } } } });
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('<script>"');
    expect(html).toContain('&lt;script&gt;');
  });

  it('groups operations under their tag with method, path and scope', () => {
    const html = renderDocsPage({ paths: { '/walls': { get: { summary: 'List walls', tags: ['Walls'], 'x-scope': 'read:walls' } } } });
    expect(html).toMatch(/<h2>Walls<\/h2><details class="op"[^>]*><summary><span class="m m-get">GET<\/span> <code>\/walls<\/code>/);
    expect(html).toContain('Scope: <code>read:walls</code>');
  });
});
