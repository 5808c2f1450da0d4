import { MockAgent, type Interceptable } from 'undici';
import { z } from 'zod';
import { ApiClient, type ApiClientOptions } from '../../../src/api/client';
import { defineEndpoint } from '../../../src/api/schemas/endpoint';
import { AdjustableClock } from '../../../src/clock';

export const ORIGIN = 'https://acme.example';
export const TOKEN = 'svc_test_secret_token_123';
export const START = Date.UTC(2030, 0, 15, 9, 0, 0);

/** What the double saw of one request. */
export interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

interface Reply {
  statusCode: number;
  data?: string | Buffer;
  responseOptions?: { headers?: Record<string, string> };
}

/**
 * The platform played by a MockAgent with net connect disabled: a request nobody intercepts
 * fails, so "never reached the network" is checkable. The clock is frozen.
 */
export function platformDouble(options: Partial<ApiClientOptions> = {}) {
  const agent = new MockAgent({ enableCallHistory: false });
  agent.disableNetConnect();
  const pool: Interceptable = agent.get(ORIGIN);
  const clock = new AdjustableClock({ start: START, frozen: true });
  const seen: Seen[] = [];
  const client = new ApiClient({
    baseUrl: ORIGIN,
    token: TOKEN,
    clock,
    dispatcher: agent,
    retry: { attempts: 4, baseDelayMs: 0, maxDelayMs: 0, maxTotalMs: 60_000 },
    random: () => 0.5,
    ...options,
  });

  /** Answers `times` requests to `path` (exact path with query, or a predicate) with `reply`. */
  function on(method: string, path: string | ((p: string) => boolean), reply: (req: Seen) => Reply, times = 1): void {
    pool
      .intercept({ method, path })
      .reply((opts) => {
        const headers = normalize(opts.headers);
        const body = typeof opts.body === 'string' ? safeJson(opts.body) : opts.body;
        const req: Seen = { method: opts.method, path: opts.path, headers, body };
        seen.push(req);
        return reply(req);
      })
      .times(times);
  }

  return { agent, pool, clock, client, seen, on };
}

function normalize(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers as Record<string, string>);
  for (const [k, v] of entries) out[k.toLowerCase()] = String(v);
  return out;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function json(statusCode: number, data: unknown, headers: Record<string, string> = {}): Reply {
  return { statusCode, data: JSON.stringify(data), responseOptions: { headers: { 'content-type': 'application/json', ...headers } } };
}

/** Lets timers armed by a clock advance, and promise chains behind them, run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

const Thing = z.looseObject({ id: z.number().int(), created_at: z.string().optional() });

/** Small endpoint definitions of our own, so the client core is tested without the catalog. */
export const testEndpoints = {
  list: defineEndpoint({
    id: 'things.list',
    method: 'GET',
    path: '/walls/{wall_id}/things',
    params: ['wall_id'],
    scope: 'read:things',
    auth: 'bearer',
    section: 'Test',
    summary: 'list',
    shown: true,
    responseKind: 'list',
    response: Thing,
    successStatus: 200,
    errors: [],
  }),
  awards: defineEndpoint({
    id: 'achievements.awards',
    method: 'GET',
    path: '/achievements/{id}/awards',
    params: ['id'],
    scope: 'read:achievements',
    auth: 'bearer',
    section: 'Test',
    summary: 'awards',
    shown: true,
    responseKind: 'meta-list',
    response: Thing,
    successStatus: 200,
    errors: [],
  }),
  userAchievements: defineEndpoint({
    id: 'users.achievements',
    method: 'GET',
    path: '/users/{id}/achievements',
    params: ['id'],
    scope: 'read:achievements',
    auth: 'bearer',
    section: 'Test',
    summary: 'not paginated',
    shown: true,
    responseKind: 'array',
    response: Thing,
    successStatus: 200,
    errors: [],
  }),
  get: defineEndpoint({
    id: 'things.get',
    method: 'GET',
    path: '/things/{id}',
    params: ['id'],
    scope: 'read:things',
    auth: 'bearer',
    section: 'Test',
    summary: 'get',
    shown: true,
    responseKind: 'single',
    response: Thing,
    successStatus: 200,
    errors: [],
  }),
  create: defineEndpoint({
    id: 'things.create',
    method: 'POST',
    path: '/walls/{wall_id}/things',
    params: ['wall_id'],
    scope: 'write:things',
    auth: 'bearer',
    section: 'Test',
    summary: 'create',
    shown: true,
    creates: true,
    body: z.object({ body: z.string().min(1), media_ids: z.array(z.number().int()).max(10).optional() }),
    responseKind: 'single',
    response: Thing,
    successStatus: 201,
    errors: [422],
  }),
  award: defineEndpoint({
    id: 'achievements.award',
    method: 'POST',
    path: '/achievements/{id}/awards',
    params: ['id'],
    scope: 'write:achievements',
    auth: 'bearer',
    section: 'Test',
    summary: 'award',
    shown: true,
    body: z.object({ awards: z.array(z.object({ user_id: z.number().int(), awarded_at: z.string() })).min(1) }),
    responseKind: 'array',
    response: Thing,
    successStatus: 201,
    errors: [422],
  }),
  update: defineEndpoint({
    id: 'things.update',
    method: 'PUT',
    path: '/things/{id}',
    params: ['id'],
    scope: 'write:things',
    auth: 'bearer',
    section: 'Test',
    summary: 'update',
    shown: true,
    body: z.object({ body: z.string() }),
    responseKind: 'single',
    response: Thing,
    successStatus: 200,
    errors: [],
  }),
  remove: defineEndpoint({
    id: 'things.delete',
    method: 'DELETE',
    path: '/things/{id}',
    params: ['id'],
    scope: 'write:things',
    auth: 'bearer',
    section: 'Test',
    summary: 'delete',
    shown: true,
    responseKind: 'empty',
    response: z.undefined(),
    successStatus: 204,
    errors: [],
  }),
  incoming: defineEndpoint({
    id: 'incoming.send',
    method: 'POST',
    path: '/incoming/{token}',
    params: ['token'],
    scope: null,
    auth: 'url-token',
    section: 'Test',
    summary: 'incoming',
    shown: true,
    body: z.object({ text: z.string() }),
    responseKind: 'raw',
    response: z.unknown(),
    successStatus: 200,
    errors: [],
  }),
};

export const API = '/api/open/v1';
