import { afterAll, beforeAll, beforeEach } from 'vitest';
import { request } from 'undici';
import type { ApiClientOptions } from '../../src/api/client';
import { createApiClient, type IntrabotApi } from '../../src/api/create-api-client';
import { MemoryRateLimiter } from '../../src/api/rate-limiter';
import { AdjustableClock } from '../../src/clock';
import { sandboxControl, type SandboxControl } from '../../src/conformance';
import type { PlatformEvent } from '../../src/sandbox/events';
import type { SandboxModule, SeedName } from '../../src/sandbox/module';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { directoryRefs, type DirectorySeedRefs } from '../../src/sandbox/seed/directory-refs';
import { SandboxControl as PlatformControl } from '../../src/testing/sandbox-control';
/** 2026-11-22 09:00 in Berlin, a Sunday. */
export const START = Date.UTC(2026, 10, 22, 8);

/** High enough that a test's many calls are never throttled; the limit itself has its own tests. */
const RATE_LIMIT = 100_000;

export interface HttpSandboxOptions {
  seed?: SeedName;
  /** Where the frozen clock stands at the start of every test. Default START (a Sunday, 09:00 Berlin). */
  start?: number;
  modules?: readonly SandboxModule[];
}

/** An answer read over raw HTTP, for calls the typed client refuses to make. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

export interface RawOptions {
  body?: unknown;
  /** The bearer token; `null` sends none. Default: the sandbox token. */
  token?: string | null;
  headers?: Record<string, string>;
}

export interface HttpSandbox {
  readonly sandbox: Sandbox;
  readonly clock: AdjustableClock;
  readonly baseUrl: string;
  readonly api: IntrabotApi;
  readonly control: SandboxControl;
  readonly platform: PlatformControl;
  readonly refs: DirectorySeedRefs;
  readonly events: PlatformEvent[];
  client(token?: string, extra?: Partial<ApiClientOptions>): IntrabotApi;
  tokenWith(scopes: string[], extra?: Record<string, unknown>): Promise<string>;
  clientWith(scopes: string[], extra?: Record<string, unknown>): Promise<IntrabotApi>;
  raw(method: string, path: string, opts?: RawOptions): Promise<RawAnswer>;
  reset(seed?: SeedName): Promise<void>;
}

/**
 * One sandbox per test file, listening on a loopback port, on a frozen clock: every test starts
 * from a fresh seed at `start` (reset through the control API). Tests call the platform with the
 * typed client (`api`, `client(token)`), drive it with the control API (`control`, and `platform`
 * for employee actions and read-backs), and use `raw` only for calls the client cannot express.
 * Emitted events are recorded in process, since the API cannot list them.
 */
export function useHttpSandbox(options: HttpSandboxOptions = {}): HttpSandbox {
  const start = options.start ?? START;
  const events: PlatformEvent[] = [];
  const clients: IntrabotApi[] = [];
  let sandbox: Sandbox | undefined;
  let api: IntrabotApi | undefined;
  let control: SandboxControl | undefined;
  let platform: PlatformControl | undefined;
  let limiter: MemoryRateLimiter | undefined;
  let refs: DirectorySeedRefs | undefined;

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`http-harness: ${what} is not ready (use it inside a test)`);
    return value;
  };

  const h: HttpSandbox = {
    get sandbox(): Sandbox {
      return need(sandbox, 'the sandbox');
    },
    get clock(): AdjustableClock {
      return h.sandbox.clock;
    },
    get baseUrl(): string {
      return h.sandbox.baseUrl;
    },
    /** The typed client on the sandbox token (every scope), a single attempt per call. */
    get api(): IntrabotApi {
      return need(api, 'the client');
    },
    get control(): SandboxControl {
      return need(control, 'the control API');
    },
    get platform(): PlatformControl {
      return need(platform, 'the platform control');
    },
    /** What the directory seed wrote (undefined after the `empty` seed). */
    get refs(): DirectorySeedRefs {
      return need(refs, 'the directory refs');
    },
    events,

    /** A typed client on another token (or with other options); closed after the file. */
    client(token: string = h.sandbox.token, extra: Partial<ApiClientOptions> = {}): IntrabotApi {
      const client = createApiClient({ baseUrl: h.baseUrl, token, clock: h.clock, limiter, retry: { attempts: 1 }, ...extra });
      clients.push(client);
      return client;
    },

    /** A token with these scopes, made through the control API (`extra`: expires_at, ip, attribution, user_id). */
    async tokenWith(scopes: string[], extra: Record<string, unknown> = {}): Promise<string> {
      const body = (await h.control.send('POST', '/tokens', { name: `t-${scopes.join('-')}`, scopes, ...extra })) as { token: string };
      return body.token;
    },

    /** A client on a fresh token that holds only `scopes`. */
    async clientWith(scopes: string[], extra: Record<string, unknown> = {}): Promise<IntrabotApi> {
      return h.client(await h.tokenWith(scopes, extra));
    },

    /** Real HTTP without the client: `path` below `/api/open/v1` unless it starts with `/_sandbox` or `/api`. */
    async raw(method: string, path: string, opts: RawOptions = {}): Promise<RawAnswer> {
      const url = `${h.baseUrl}${path.startsWith('/_sandbox') || path.startsWith('/api/') ? path : `/api/open/v1${path}`}`;
      const token = opts.token === undefined ? h.sandbox.token : opts.token;
      const json = opts.body !== undefined && typeof opts.body !== 'string' && !(opts.body instanceof Uint8Array);
      const res = await request(url, {
        method: method as 'GET',
        headers: {
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
          ...(json ? { 'content-type': 'application/json' } : {}),
          ...opts.headers,
        },
        ...(opts.body === undefined ? {} : { body: json ? JSON.stringify(opts.body) : (opts.body as string | Uint8Array) }),
      });
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, text, json: <T>() => JSON.parse(text) as T };
    },

    /** Back to a fresh seed at `start`, high rate limit, no faults, no recorded events. */
    async reset(seed: SeedName = options.seed ?? 'demo'): Promise<void> {
      // the seed dates what it writes with the clock: the reset puts the clock at `start` first
      await h.control.send('POST', '/reset', { seed, now: new Date(start).toISOString() });
      await h.control.settings({ rate_limit_per_minute: RATE_LIMIT });
      await h.control.send('DELETE', '/faults');
      await h.control.send('DELETE', '/requests');
      refs = directoryRefs(h.sandbox.ctx) ?? undefined;
      events.length = 0;
    },
  };

  beforeAll(async () => {
    const clock = new AdjustableClock({ start, frozen: true });
    sandbox = await createSandbox({ port: 0, clock, seed: options.seed ?? 'demo', ...(options.modules ? { modules: options.modules } : {}) });
    sandbox.ctx.events.on((event) => events.push(event));
    control = sandboxControl(sandbox.baseUrl);
    platform = new PlatformControl(sandbox.baseUrl);
    limiter = new MemoryRateLimiter({ clock, defaultLimit: RATE_LIMIT });
    api = h.client();
  });

  beforeEach(async () => h.reset());

  afterAll(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await sandbox?.close();
  });

  return h;
}

/** What a rejected promise rejected with (to assert on a typed error's fields). */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)?.slice(0, 200)}`);
    },
    (error: unknown) => error,
  );
}

/** A multipart body with text fields and an optional file, as bytes, for uploads the client refuses to send. */
export async function multipart(fields: Record<string, string>, file?: { field: string; name: string; type: string; bytes: Uint8Array }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append(file.field, new Blob([file.bytes], { type: file.type }), file.name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type') as string } };
}

/** A minimal PNG header (signature + IHDR) claiming the given size. */
export function pngBytes(width: number, height: number): Uint8Array {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}
