import type { CallInput, Caller } from '../../api/caller';
import type { IntrabotApi } from '../../api/create-api-client';
import { errorFromResponse } from '../../api/error-mapping';
import { createPostWithMedia, uploadMedia } from '../../api/media';
import { endpointPath, requestPayload } from '../../api/request-payload';
import { createResources } from '../../api/resources';
import type { AnyEndpoint } from '../../api/schemas/endpoint';
import { endpoints, type EndpointId } from '../../api/schemas/endpoints';
import { IntrabotError } from '../../errors';

/** One request a handler made through `ctx.api`, as `testBot` saw it. */
export interface ApiCall {
  /** The endpoint's id (`users.get`, `achievements.award`), or `raw` for `ctx.api.request`. */
  endpoint: string;
  method: string;
  /** Below `/api/open/v1`, without the query: `/users/12`. */
  path: string;
  /** The path parameters by name (`{ id: '12' }`). */
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** The JSON body as it would go on the wire (validated, defaults applied); undefined without one. */
  body: unknown;
}

/**
 * A stubbed endpoint: the answer itself, or a function of the call that returns it (or a promise of it).
 * An answer is what the handler gets back, without the platform's `{ data }` envelope: the resource for
 * a single one (`users.get`), an array of items for a list (`users.list`, `ctx.api.users.all()`). Answers
 * are taken as given (only the fields your bot reads are needed); request bodies are checked as the real
 * client checks them. To fail, return or throw `apiError(status, message?)`.
 */
export type ApiStub = unknown;

/**
 * Stubs by endpoint id (`'users.get'`), by method and path template (`'GET /users/{id}'`), or by a
 * concrete path (`'GET /users/12'`, which wins over a template).
 */
export type ApiStubs = { [K in EndpointId]?: ApiStub } & Record<string, ApiStub>;

/** A platform failure for a stub to answer with: the handler sees the error class the real client throws. */
export class StubbedFailure {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}

/**
 * What a stub returns (or throws) to make the call fail as the platform would: 404 is `ApiNotFoundError`,
 * 422 `ApiValidationError` (name the field: `'awards.0.user_id: ...'`), 403 `ApiForbiddenError`...
 *
 * @example
 * testBot('bots/kudos', { api: { 'users.get': apiError(404) } })
 */
export function apiError(status: number, message = ''): StubbedFailure {
  return new StubbedFailure(status, message);
}

/** A call that no stub answers: the message says what to add. */
export class UnstubbedCallError extends IntrabotError {
  constructor(readonly call: ApiCall) {
    const key = call.endpoint === 'raw' ? `'${call.method} ${call.path}'` : `'${call.endpoint}'`;
    super('unstubbed_call', `testBot: ${call.method} ${call.path} has no stub; answer it with api: { ${key}: ... } (or bot.stub(${key}, ...))`, {
      details: { endpoint: call.endpoint },
    });
  }
}

interface CompiledStub {
  key: string;
  method: string;
  segments: string[];
  answer: ApiStub;
}

/** The fake `ctx.api` of `testBot`: every call recorded, answered by the stubs, never sent. */
export interface StubApi {
  api: IntrabotApi;
  calls: ApiCall[];
  /** Calls no stub answered, since the last `takeUnstubbed()`. */
  takeUnstubbed(): ApiCall[];
  stub(key: string, answer: ApiStub): void;
}

export function createStubApi(initial: ApiStubs = {}): StubApi {
  const stubs = new Map<string, CompiledStub>();
  const calls: ApiCall[] = [];
  let unstubbed: ApiCall[] = [];
  const stub = (key: string, answer: ApiStub): void => void stubs.set(key, compile(key, answer));
  for (const [key, answer] of Object.entries(initial)) stub(key, answer);

  const answer = async (call: ApiCall): Promise<unknown> => {
    calls.push(call);
    const found = [...stubs.values()]
      .filter((s) => s.method === call.method && matches(s.segments, call.path))
      .sort((a, b) => placeholders(a.segments) - placeholders(b.segments))[0];
    if (!found) {
      unstubbed.push(call);
      throw new UnstubbedCallError(call);
    }
    let value: unknown;
    try {
      value = typeof found.answer === 'function' ? await (found.answer as (call: ApiCall) => unknown)(call) : found.answer;
    } catch (error) {
      if (!(error instanceof StubbedFailure)) throw error;
      value = error;
    }
    if (value instanceof StubbedFailure)
      throw errorFromResponse({ method: call.method, path: call.path, status: value.status }, { message: value.message }, {}, 0);
    if (value instanceof Error) throw value;
    return structuredClone(value);
  };

  const callOf = (endpoint: AnyEndpoint, input: CallInput<AnyEndpoint>): ApiCall => {
    const path = endpointPath(endpoint, input.params);
    const payload = requestPayload(endpoint, input);
    const body = typeof payload.body === 'string' ? JSON.parse(payload.body) : payload.body;
    return { endpoint: endpoint.id, method: endpoint.method, path, params: stringValues(input.params), query: { ...input.query }, body };
  };

  const caller: Caller = {
    async call(endpoint, input = {}) {
      const value = await answer(callOf(endpoint, input as CallInput<AnyEndpoint>));
      if (endpoint.responseKind === 'empty') return undefined as never;
      // a page is `{ data, links, meta }`; an `array` answer is the items themselves, as the real client returns them
      const paged = endpoint.responseKind === 'list' || endpoint.responseKind === 'meta-list';
      return (paged && Array.isArray(value) ? { data: value } : value) as never;
    },
    async *paginate(endpoint, input = {}) {
      const value = await answer(callOf(endpoint, input as CallInput<AnyEndpoint>));
      const items = Array.isArray(value) ? value : ((value as { data?: unknown[] } | undefined)?.data ?? []);
      for (const item of items) yield item as never;
    },
  };

  const raw = {
    root: new URL('https://testbot.invalid/api/open/v1'),
    async request(request: { method: string; path: string; query?: Record<string, unknown>; body?: unknown }) {
      const path = request.path.split('?')[0]!.replace(/^\/api\/open\/v1/, '');
      const body = await answer({ endpoint: 'raw', method: request.method.toUpperCase(), path, params: {}, query: { ...request.query }, body: request.body });
      return { status: 200, headers: {}, body };
    },
    async *paginateRequest(request: { path: string; query?: Record<string, unknown> }) {
      const path = request.path.split('?')[0]!.replace(/^\/api\/open\/v1/, '');
      const value = await answer({ endpoint: 'raw', method: 'GET', path, params: {}, query: { ...request.query }, body: undefined });
      yield* Array.isArray(value) ? value : [];
    },
    async close() {},
  };
  const resources = createResources(caller);
  const api = Object.assign(caller, raw, resources, {
    media: { ...resources.media, uploadFile: (input: Parameters<typeof uploadMedia>[1]) => uploadMedia(caller, input) },
    posts: { ...resources.posts, createWithMedia: (input: Parameters<typeof createPostWithMedia>[1]) => createPostWithMedia(caller, input) },
  });
  return {
    // the real client's class has private state a fake cannot have; every public member is here
    api: api as unknown as IntrabotApi,
    calls,
    takeUnstubbed: () => {
      const taken = unstubbed;
      unstubbed = [];
      return taken;
    },
    stub,
  };
}

/** `users.get` → its method and template; `GET /users/{id}` or `GET /users/12` as written. */
function compile(key: string, answer: ApiStub): CompiledStub {
  const endpoint = (endpoints as Record<string, AnyEndpoint>)[key];
  if (endpoint) return { key, method: endpoint.method, segments: split(endpoint.path), answer };
  const match = /^(GET|POST|PUT|PATCH|DELETE)\s+(\/\S*)$/.exec(key.trim());
  if (!match) throw new IntrabotError('invalid_input', `stub "${key}": name an endpoint id (users.get) or a method and path (GET /users/{id})`);
  return { key, method: match[1]!, segments: split(match[2]!.replace(/^\/api\/open\/v1/, '')), answer };
}

function split(path: string): string[] {
  return path
    .split('?')[0]!
    .split('/')
    .filter((s) => s !== '');
}

function matches(pattern: readonly string[], path: string): boolean {
  const segments = split(path);
  return pattern.length === segments.length && pattern.every((part, i) => /^\{\w+\}$/.test(part) || part === decodeURIComponent(segments[i]!));
}

function placeholders(segments: readonly string[]): number {
  return segments.filter((s) => s.startsWith('{')).length;
}

function stringValues(params: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries((params ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}
