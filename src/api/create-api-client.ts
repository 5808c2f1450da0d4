import type { TraceContext } from '../tracing/spans';
import { ApiClient, type ApiClientOptions } from './client';
import { createPostWithMedia, uploadMedia, type PostWithMediaInput, type UploadMediaInput } from './media';
import { createResources, RESOURCE_GROUPS, type Resources } from './resources';

/** The client with every resource group attached, plus the file conveniences on media and posts. */
export type IntrabotApi = ApiClient &
  Omit<Resources, 'media' | 'posts'> & {
    media: Resources['media'] & { uploadFile(input: UploadMediaInput): ReturnType<typeof uploadMedia> };
    posts: Resources['posts'] & { createWithMedia(input: PostWithMediaInput): ReturnType<typeof createPostWithMedia> };
  };

/**
 * The typed API client: `call`/`paginate`/`request` of `ApiClient`, and a method for every
 * endpoint grouped by resource.
 *
 * @example
 * const api = createApiClient({ baseUrl: 'https://acme.example', token: process.env.INTRABOT_TOKEN!, clock });
 * const wall = await api.walls.get(3);
 * await api.posts.createWithMedia({ wallId: wall.id, body: 'Q3 report', media: [{ data: { path: 'q3.pdf' }, type: 'document' }] });
 * for await (const user of api.users.all({ since: cursor })) console.log(user.id);
 */
export function createApiClient(options: ApiClientOptions): IntrabotApi {
  return withResources(new ApiClient(options));
}

/** The client's own methods, which `tracedApi` wraps. */
type ClientMethods = Pick<ApiClient, 'root' | 'call' | 'paginate' | 'request' | 'paginateRequest' | 'close'>;

/**
 * The same client seen from one traced step (a handler run): every request it makes goes under `trace`.
 * It shares the client's connections and rate budget; closing it closes nothing. A resource group is
 * made when the step first uses it (making all of them costs a handler run more than most handlers do).
 * Without a trace (tracing off, or the step is not traced) it is the client itself.
 */
export function tracedApi(api: IntrabotApi, trace: TraceContext | undefined): IntrabotApi {
  if (trace === undefined) return api;
  const methods: ClientMethods = {
    root: api.root,
    call: (endpoint, input = {}) => api.call(endpoint, { ...input, trace }),
    paginate: (endpoint, input = {}) => api.paginate(endpoint, { ...input, trace }),
    request: (request) => api.request({ ...request, trace }),
    paginateRequest: (request) => api.paginateRequest({ ...request, trace }),
    close: async () => undefined,
  };
  const made = new Map<string, unknown>();
  const isGroup = (key: string | symbol): key is keyof Resources => typeof key === 'string' && Object.hasOwn(RESOURCE_GROUPS, key);
  // the same shape as the client's (its private state stays with the client it calls)
  return new Proxy(methods, {
    get: (target, key) => {
      if (!isGroup(key)) return Reflect.get(target, key);
      if (!made.has(key)) made.set(key, resourceGroup(key, methods));
      return made.get(key);
    },
    has: (target, key) => isGroup(key) || Reflect.has(target, key),
  }) as unknown as IntrabotApi;
}

function withResources(client: ApiClient): IntrabotApi {
  const resources = createResources(client);
  return Object.assign(client, resources, { media: resourceGroup('media', client), posts: resourceGroup('posts', client) });
}

/** One resource group over `caller`; media and posts with their file conveniences. */
function resourceGroup<K extends keyof Resources>(name: K, caller: ClientMethods): IntrabotApi[K];
function resourceGroup(name: keyof Resources, caller: ClientMethods): unknown {
  const group = RESOURCE_GROUPS[name](caller);
  if (name === 'media') return { ...group, uploadFile: (input: UploadMediaInput) => uploadMedia(caller, input) };
  if (name === 'posts') return { ...group, createWithMedia: (input: PostWithMediaInput) => createPostWithMedia(caller, input) };
  return group;
}
