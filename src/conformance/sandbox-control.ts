import { fetch, type Dispatcher } from 'undici';
import { ConformanceMismatch } from './check';

/**
 * The sandbox's control API (`/_sandbox/*`, DESIGN.md) over HTTP: what a check needs to drive the
 * emulated platform's clock, settings and employees. The platform has no such API, so checks that
 * need it skip against a real host.
 */
export interface SandboxControl {
  /** The sandbox clock, ms since the epoch. */
  now(): Promise<number>;
  advance(seconds: number): Promise<void>;
  /** Sets the sandbox clock to `epochMs` (back in time too). */
  setClock(epochMs: number): Promise<void>;
  settings(patch: Record<string, unknown>): Promise<Record<string, unknown>>;
  createToken(name: string, scopes: readonly string[]): Promise<string>;
  /** Any other control route: answers the parsed JSON body (null when empty); throws on a non-2xx. */
  send(method: string, path: string, body?: unknown): Promise<unknown>;
}

const PROBE_TIMEOUT_MS = 3_000;

/** The control API of the sandbox at `baseUrl`; `dispatcher` as the API client's (tests pass a MockAgent). */
export function sandboxControl(baseUrl: string, dispatcher?: Dispatcher): SandboxControl {
  const root = baseUrl.replace(/\/+$/, '');
  const send = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${root}/_sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher,
    });
    const text = await res.text();
    if (!res.ok) throw new ConformanceMismatch(`sandbox control ${method} /_sandbox${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return text === '' ? null : (JSON.parse(text) as unknown);
  };
  return {
    send,
    async now() {
      const body = (await send('GET', '/clock')) as { epoch_ms?: unknown };
      if (typeof body.epoch_ms !== 'number') throw new ConformanceMismatch('sandbox control GET /_sandbox/clock has no epoch_ms');
      return body.epoch_ms;
    },
    async advance(seconds) {
      await send('POST', '/clock', { advance_seconds: seconds });
    },
    async setClock(epochMs) {
      await send('POST', '/clock', { now: new Date(epochMs).toISOString() });
    },
    async settings(patch) {
      return (await send('PUT', '/settings', patch)) as Record<string, unknown>;
    },
    async createToken(name, scopes) {
      const body = (await send('POST', '/tokens', { name, scopes })) as { token?: unknown };
      if (typeof body.token !== 'string') throw new ConformanceMismatch('sandbox control POST /_sandbox/tokens answered no token');
      return body.token;
    },
  };
}

/**
 * The control API when `baseUrl` is a sandbox, undefined otherwise. A real customer host answers
 * `/_sandbox/clock` with a 404 (or not at all), which is harmless to ask.
 */
export async function probeSandbox(baseUrl: string, dispatcher?: Dispatcher): Promise<SandboxControl | undefined> {
  try {
    const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/_sandbox/clock`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), dispatcher });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { epoch_ms?: unknown };
    return typeof body.epoch_ms === 'number' ? sandboxControl(baseUrl, dispatcher) : undefined;
  } catch {
    return undefined;
  }
}
