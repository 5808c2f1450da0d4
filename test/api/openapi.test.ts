import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/api/openapi';
import { endpointList, endpoints } from '../../src/api/schemas/endpoints';
import { createOpenApiCommand } from '../../src/cli/commands/openapi';

type Doc = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Record<string, any>>>;
  components: { schemas: Record<string, any>; securitySchemes: Record<string, unknown> };
};

const doc = buildOpenApiDocument() as Doc;

/** Every `$ref` in a JSON value. */
function refs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, found));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refs(inner, found);
    }
  }
  return found;
}

describe('buildOpenApiDocument', () => {
  it('is an OpenAPI 3.1 document with paths, components and a bearer scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).length).toBeGreaterThan(40);
    expect(doc.components.securitySchemes).toHaveProperty('bearerAuth');
    expect(doc.components.schemas).toHaveProperty('Post');
  });

  it('lists every method and path of the catalogue, with the endpoint id as operationId', () => {
    for (const endpoint of endpointList) {
      expect(doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()]?.operationId, `${endpoint.method} ${endpoint.path}`).toBe(endpoint.id);
    }
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(operations).toBe(endpointList.length);
  });

  it('resolves every $ref to a component', () => {
    const missing = refs(doc).filter((ref) => {
      const [, , kind, name] = ref.split('/');
      return !(doc.components as Record<string, Record<string, unknown>>)[kind ?? '']?.[name ?? ''];
    });
    expect(missing).toEqual([]);
  });

  it('wraps list responses in the data/links/meta envelope and single ones in data', () => {
    const list = doc.paths['/walls/{wall_id}/posts']?.get?.responses['200'].content['application/json'].schema;
    expect(list.required).toEqual(['data', 'links', 'meta']);
    expect(list.properties.data.items).toEqual({ $ref: '#/components/schemas/Post' });
    const single = doc.paths['/walls/{wall_id}/posts/{id}']?.get?.responses['200'].content['application/json'].schema;
    expect(single.properties.data).toEqual({ $ref: '#/components/schemas/Post' });
  });

  it('documents path parameters and pagination query parameters (spec: Pagination)', () => {
    const params = doc.paths['/walls/{wall_id}/posts']?.get?.parameters as { name: string; in: string; schema: Record<string, unknown> }[];
    expect(params.map((p) => `${p.in}:${p.name}`)).toEqual(['path:wall_id', 'query:page', 'query:per_page', 'query:since', 'query:status']);
    expect(params.find((p) => p.name === 'per_page')?.schema).toMatchObject({ type: 'integer', maximum: 50 });
  });

  it('describes the media upload as a multipart body with a binary file', () => {
    const body = doc.paths['/media']?.post?.requestBody.content['multipart/form-data'].schema;
    expect(body).toEqual({ $ref: '#/components/schemas/MediaUpload' });
    expect(doc.components.schemas.MediaUpload.properties.media).toEqual({ type: 'string', format: 'binary' });
  });

  it('puts the scope in security and 401/403/429 on bearer routes, none on the incoming trigger', () => {
    const create = doc.paths['/walls/{wall_id}/posts']?.post;
    expect(create?.security).toEqual([{ bearerAuth: ['write:posts'] }]);
    expect(Object.keys(create?.responses ?? {})).toEqual(expect.arrayContaining(['201', '401', '403', '404', '422', '429']));
    expect(create?.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    const incoming = doc.paths['/incoming/{token}']?.post;
    expect(incoming?.security).toEqual([]);
    expect(incoming?.parameters[0]).toMatchObject({ name: 'token', in: 'path', schema: { type: 'string' } });
  });

  it('marks our own choices with x-spec-shown false and leaves spec shapes unmarked', () => {
    expect(doc.paths['/incoming-webhooks']?.post?.['x-spec-shown']).toBe(false);
    expect(doc.paths['/walls']?.get?.['x-spec-shown']).toBeUndefined();
  });

  it('documents request bodies as the caller sends them (award dates before the time is dropped)', () => {
    expect(doc.components.schemas.AwardCreate.properties.awards.items).toEqual({ $ref: '#/components/schemas/AwardRow' });
    expect(doc.components.schemas.AwardRow.required).toEqual(['user_id', 'awarded_at']);
    expect(doc.components.schemas.PostCreate.properties.media_ids.maxItems).toBe(10);
  });

  it('uses the given server url, adding /api/open/v1 once', () => {
    expect((buildOpenApiDocument({ serverUrl: 'https://acme.example.com/' }) as Doc).servers).toEqual([{ url: 'https://acme.example.com/api/open/v1' }]);
    expect((buildOpenApiDocument({ serverUrl: 'http://127.0.0.1:3000/api/open/v1' }) as Doc).servers[0]?.url).toBe('http://127.0.0.1:3000/api/open/v1');
  });

  it('can document a subset of endpoints', () => {
    const small = buildOpenApiDocument({ endpoints: [endpoints['walls.list']] }) as Doc;
    expect(Object.keys(small.paths)).toEqual(['/walls']);
  });
});

describe('intrabot openapi', () => {
  it('prints the document as JSON through run()', async () => {
    const out: string[] = [];
    const code = await createOpenApiCommand({ stdout: (t) => out.push(t), stderr: () => undefined }).run(['--server-url', 'https://acme.example.com']);
    expect(code).toBe(0);
    const printed = JSON.parse(out.join('')) as Doc;
    expect(printed.openapi).toBe('3.1.0');
    expect(printed.servers[0]?.url).toBe('https://acme.example.com/api/open/v1');
  });

  it('refuses an unknown argument with exit code 2', async () => {
    const err: string[] = [];
    const code = await createOpenApiCommand({ stdout: () => undefined, stderr: (t) => err.push(t) }).run(['--yaml']);
    expect(code).toBe(2);
    expect(err.join('')).toContain('Usage');
  });

  it('is found by the intrabot CLI', () => {
    // the CLI as `npm start` runs it: bin/intrabot.mjs, from its build of src/
    const bin = fileURLToPath(new URL('../../bin/intrabot.mjs', import.meta.url));
    const result = spawnSync(process.execPath, [bin, 'openapi', '--compact'], { encoding: 'utf8', timeout: 20_000 });
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as Doc).paths).toHaveProperty('/walls');
  });
});
