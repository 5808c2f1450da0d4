/**
 * The OpenAPI 3.1 document of the platform API, generated from the endpoint catalogue: the same
 * definitions the client, the sandbox and the proxy use, so the document cannot drift from them.
 */
import { z } from 'zod';
import * as schemas from './schemas';
import type { AnyEndpoint } from './schemas/endpoint';
import { endpointList } from './schemas/endpoints';

/** The spec revision the catalogue models (spec: Versioning). */
export const SPEC_REVISION = '0.45.0';

export interface OpenApiOptions {
  /** The platform host (`{base_url}`); `/api/open/v1` is added. Default: a `{base_url}` server variable. */
  serverUrl?: string;
  /** Endpoints to document; default the whole catalogue. */
  endpoints?: readonly AnyEndpoint[];
}

type Json = Record<string, unknown>;

const REF = (name: string) => ({ $ref: `#/components/schemas/${name}` });

// nested shapes worth a component of their own (each endpoint's body and response get one anyway)
const SHARED_OUTPUT: Record<string, z.ZodType> = {
  EmbeddedGroup: schemas.EmbeddedGroupSchema,
  MembershipGroup: schemas.MembershipGroupSchema,
  EmbeddedUser: schemas.EmbeddedUserSchema,
  ReducedUser: schemas.ReducedUserSchema,
  MinimalUser: schemas.MinimalUserSchema,
  AchievementSummary: schemas.AchievementSummarySchema,
  ErrorBody: schemas.ErrorBodySchema,
  ListLinks: schemas.ListLinksSchema,
  ListMeta: schemas.ListMetaSchema,
};
const SHARED_INPUT: Record<string, z.ZodType> = {
  IncomingMediaItem: schemas.IncomingMediaItemSchema,
  AwardRow: schemas.AwardRowSchema,
};

/** `PostSchema` -> `Post`: the exported names of the schemas module, by schema identity. */
function exportedNames(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  for (const [key, value] of Object.entries(schemas)) {
    if (value instanceof z.ZodType && key.endsWith('Schema') && !names.has(value)) names.set(value, key.slice(0, -'Schema'.length));
  }
  return names;
}

function pascal(id: string): string {
  return id
    .split(/[.\-_]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** Names every body and response schema of the endpoints, and registers them for conversion. */
function registerSchemas(list: readonly AnyEndpoint[]) {
  const exported = exportedNames();
  const input = z.registry<{ id: string }>();
  const output = z.registry<{ id: string }>();
  const named = new Map<z.ZodType, string>();
  const used = new Set<string>();
  const add = (registry: typeof input, schema: z.ZodType, fallback: string): string => {
    const known = named.get(schema);
    if (known) return known;
    let name = exported.get(schema) ?? fallback;
    while (used.has(name)) name = `${name}_`;
    named.set(schema, name);
    used.add(name);
    registry.add(schema, { id: name });
    return name;
  };
  for (const [name, schema] of Object.entries(SHARED_OUTPUT)) add(output, schema, name);
  for (const [name, schema] of Object.entries(SHARED_INPUT)) add(input, schema, name);
  const bodies = new Map<string, string>();
  const responses = new Map<string, string>();
  for (const endpoint of list) {
    if (endpoint.body) bodies.set(endpoint.id, add(input, endpoint.body, `${pascal(endpoint.id)}Body`));
    if (endpoint.responseKind !== 'empty') responses.set(endpoint.id, add(output, endpoint.response, `${pascal(endpoint.id)}Result`));
  }
  return { input, output, bodies, responses };
}

const SAFE_INT = Number.MAX_SAFE_INTEGER;

/** Drops the noise zod adds for readers of the document: safe-integer bounds, regexes behind a `format`. */
function tidy(ctx: { zodSchema: unknown; jsonSchema: Json }): void {
  const json = ctx.jsonSchema;
  if (json.minimum === -SAFE_INT) delete json.minimum;
  if (json.maximum === SAFE_INT) delete json.maximum;
  if (typeof json.format === 'string' && json.pattern) delete json.pattern;
  const def = (ctx.zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def;
  // the only custom schemas in requests are files of multipart bodies (z.instanceof(Blob))
  if (def?.type === 'custom') Object.assign(json, { type: 'string', format: 'binary' });
}

function convert(schema: z.ZodType | typeof z.globalRegistry, io: 'input' | 'output', withRefs = true): Json {
  return z.toJSONSchema(schema as z.ZodType, {
    io,
    unrepresentable: 'any',
    override: tidy,
    ...(withRefs ? { uri: (id: string) => `#/components/schemas/${id}` } : {}),
  }) as Json;
}

/** Component schemas of both registries, without the per-schema `$schema` and `$id`. */
function componentSchemas(input: z.core.$ZodRegistry<{ id: string }>, output: z.core.$ZodRegistry<{ id: string }>): Json {
  const all: Json = {};
  for (const [registry, io] of [
    [output, 'output'],
    [input, 'input'],
  ] as const) {
    const converted = convert(registry as never, io) as { schemas: Record<string, Json> };
    for (const [name, schema] of Object.entries(converted.schemas)) {
      const { $schema: _s, $id: _i, ...rest } = schema;
      all[name] = rest;
    }
  }
  return all;
}

function parameters(endpoint: AnyEndpoint): Json[] {
  const path = endpoint.params.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'token' ? { type: 'string' } : { type: 'integer' },
  }));
  const shape = endpoint.query instanceof z.ZodObject ? (endpoint.query.shape as Record<string, z.ZodType>) : {};
  const query = Object.entries(shape).map(([name, schema]) => {
    const { $schema: _s, ...json } = convert(schema, 'output', false);
    return { name, in: 'query', required: false, schema: json, ...(name === 'group_ids' ? { style: 'form', explode: false } : {}) };
  });
  return [...path, ...query];
}

function successBody(endpoint: AnyEndpoint, name: string): Json {
  const item = REF(name);
  switch (endpoint.responseKind) {
    case 'single':
      return { type: 'object', properties: { data: item }, required: ['data'] };
    case 'list':
      return {
        type: 'object',
        properties: { data: { type: 'array', items: item }, links: REF('ListLinks'), meta: REF('ListMeta') },
        required: ['data', 'links', 'meta'],
      };
    case 'meta-list':
      return {
        type: 'object',
        properties: { data: { type: 'array', items: item }, links: REF('ListLinks'), meta: REF('ListMeta') },
        required: ['data', 'meta'],
      };
    case 'array':
      return { type: 'object', properties: { data: { type: 'array', items: item } }, required: ['data'] };
    default:
      return item;
  }
}

const RATE_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

// spec: Errors
const ERROR_RESPONSES: Record<number, Json> = {
  401: { description: 'Token invalid or inactive (`unauthorized`).', content: { 'application/json': { schema: REF('ErrorBody') } } },
  403: {
    description: 'Token lacks the scope (the message names it), or the feature is disabled (`forbidden`).',
    content: { 'application/json': { schema: REF('ErrorBody') } },
  },
  404: { description: 'Not found (no body).' },
  422: { description: 'Validation failure (`validation_error`); the message names the field.', content: { 'application/json': { schema: REF('ErrorBody') } } },
  429: { description: 'Rate limit exceeded.', headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } },
};

function responses(endpoint: AnyEndpoint, responseName: string | undefined): Json {
  const headers = endpoint.auth === 'bearer' ? { headers: RATE_HEADERS } : {};
  const success =
    endpoint.responseKind === 'empty' || responseName === undefined
      ? { description: 'No content.', ...headers }
      : { description: endpoint.summary, ...headers, content: { 'application/json': { schema: successBody(endpoint, responseName) } } };
  const statuses = new Set([...endpoint.errors, ...(endpoint.auth === 'bearer' ? [401, 403, 429] : [])]);
  const errors = [...statuses].sort().map((status) => [String(status), ERROR_RESPONSES[status] ?? { description: `Error ${status}.` }]);
  return { [String(endpoint.successStatus)]: success, ...Object.fromEntries(errors) };
}

function requestBody(endpoint: AnyEndpoint, bodyName: string | undefined): Json | undefined {
  if (!bodyName) return undefined;
  const type = endpoint.multipart ? 'multipart/form-data' : 'application/json';
  return { required: true, content: { [type]: { schema: REF(bodyName) } } };
}

function operation(endpoint: AnyEndpoint, bodyName: string | undefined, responseName: string | undefined): Json {
  const body = requestBody(endpoint, bodyName);
  return {
    operationId: endpoint.id,
    summary: endpoint.summary,
    tags: [endpoint.section],
    parameters: parameters(endpoint),
    ...(body ? { requestBody: body } : {}),
    responses: responses(endpoint, responseName),
    security: endpoint.auth === 'bearer' ? [{ bearerAuth: endpoint.scope ? [endpoint.scope] : [] }] : [],
    'x-scope': endpoint.scope,
    ...(endpoint.conditionalScopes?.length ? { 'x-conditional-scopes': endpoint.conditionalScopes } : {}),
    ...(endpoint.shown ? {} : { 'x-spec-shown': false }),
  };
}

function servers(serverUrl: string | undefined): Json[] {
  if (serverUrl) {
    const base = serverUrl.replace(/\/+$/, '');
    return [{ url: base.endsWith('/api/open/v1') ? base : `${base}/api/open/v1` }];
  }
  return [{ url: '{base_url}/api/open/v1', variables: { base_url: { default: 'http://127.0.0.1:4010', description: "The customer's host." } } }];
}

const COMPONENT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per minute for this token.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the window resets.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
};

/**
 * The OpenAPI 3.1 document of every catalogued endpoint: parameters, bodies (JSON or multipart),
 * envelopes, documented errors, the scope each needs, and `x-spec-shown: false` on shapes that
 * are our choice.
 *
 * @example
 * const doc = buildOpenApiDocument({ serverUrl: 'https://acme.example.com' });
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): Json {
  const list = options.endpoints ?? endpointList;
  const { input, output, bodies, responses: responseNames } = registerSchemas(list);
  const paths: Record<string, Record<string, Json>> = {};
  for (const endpoint of list) {
    const item = (paths[endpoint.path] ??= {});
    item[endpoint.method.toLowerCase()] = operation(endpoint, bodies.get(endpoint.id), responseNames.get(endpoint.id));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Workplace platform Open API (as modelled by intrabot)',
      version: SPEC_REVISION,
      description: 'Generated from the intrabot endpoint catalogue. Operations marked `x-spec-shown: false` use shapes the reference does not show.',
    },
    servers: servers(options.serverUrl),
    security: [{ bearerAuth: [] }],
    tags: [...new Set(list.map((e) => e.section))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'A platform token (`svc_...`).' } },
      headers: COMPONENT_HEADERS,
      schemas: componentSchemas(input, output),
    },
  };
}
