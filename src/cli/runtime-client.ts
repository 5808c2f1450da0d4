import { loadConfig, type RuntimeConfig, type TenantConfig } from '../runtime/config/config';

/**
 * How CLI commands reach a running runtime: its loopback admin routes at
 * `http://127.0.0.1:${INTRABOT_PORT || 3000}`, with `Authorization: Bearer ${INTRABOT_ADMIN_TOKEN}`
 * when that is set (required outside sandbox mode). "No runtime up" (nothing listening) is an
 * answer, not an exception, so commands can fall back to working in-process.
 */

/** What a call to the runtime gave: no runtime listening, or its HTTP answer. */
export type RuntimeAnswer<T = unknown> = { reachable: false } | { reachable: true; status: number; body: T };

export interface RuntimeClient {
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  request<T = unknown>(method: 'GET' | 'POST', path: string, init?: { body?: string; headers?: Record<string, string> }): Promise<RuntimeAnswer<T>>;
}

export interface RuntimeClientOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** Overrides the address (tests). */
  baseUrl?: string;
  /** Per-request limit (ms): a runtime that accepts but never answers is a failure, not a hang. */
  timeoutMs?: number;
}

/**
 * @example
 * const client = createRuntimeClient({ env: process.env });
 * const answer = await client.request('GET', '/_admin/deliveries?state=dead');
 * if (!answer.reachable) console.log('no runtime up');
 */
export function createRuntimeClient(options: RuntimeClientOptions): RuntimeClient {
  const baseUrl = options.baseUrl ?? `http://127.0.0.1:${options.env.INTRABOT_PORT || 3000}`;
  const token = options.env.INTRABOT_ADMIN_TOKEN;
  return {
    baseUrl,
    async request<T>(method: 'GET' | 'POST', path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (token && path.startsWith('/_admin/')) headers.authorization = `Bearer ${token}`;
      if (init.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
      let res: Response;
      try {
        res = await fetch(`${baseUrl}${path}`, { method, headers, body: init.body, signal: AbortSignal.timeout(options.timeoutMs ?? 60_000) });
      } catch (error) {
        if (isConnectionRefused(error)) return { reachable: false };
        throw error;
      }
      const text = await res.text();
      return { reachable: true, status: res.status, body: parseBody(text) as T };
    },
  };
}

/** True when something listens at `url` (any HTTP answer counts). */
export async function isListening(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return true;
  } catch (error) {
    if (isConnectionRefused(error)) return false;
    throw error;
  }
}

/** The error a runtime that is not running gives: the connection is refused. */
export function isConnectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string; errors?: { code?: string }[] } } | undefined)?.cause;
  if (cause?.code === 'ECONNREFUSED') return true;
  // happy-eyeballs tries several addresses and reports an AggregateError of refusals
  return Array.isArray(cause?.errors) && cause.errors.length > 0 && cause.errors.every((e) => e.code === 'ECONNREFUSED');
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * What to tell the user when the runtime refuses an admin call, in one sentence with the fix: a 403
 * means the runtime has no admin token (its admin routes are off), a 401 that this command sent none
 * or another; undefined for any other answer.
 */
export function adminRefusal(status: number): string | undefined {
  if (status === 403) return "the runtime's admin routes are off: start the runtime with INTRABOT_ADMIN_TOKEN set, and give this command the same value";
  if (status === 401) return "the runtime refused the admin token: set INTRABOT_ADMIN_TOKEN to the runtime's admin token";
  return undefined;
}

/** The message in an error answer of the runtime (`{ error: { message } }` or `{ message }`). */
export function answerMessage(body: unknown): string {
  const b = body as { error?: { message?: string } | string; message?: string } | undefined;
  if (typeof b?.error === 'object' && b.error.message) return b.error.message;
  if (typeof b?.message === 'string') return b.message;
  if (typeof b?.error === 'string') return b.error;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/**
 * The tenant a command acts on: `--tenant`, or the only one configured. Undefined when several are
 * configured and none was named, or the named one does not exist.
 */
export function pickTenant(config: RuntimeConfig, wanted: string | undefined): TenantConfig | undefined {
  if (wanted !== undefined) return config.tenants.find((t) => t.id === wanted);
  return config.tenants.length === 1 ? config.tenants[0] : undefined;
}

/** Why `pickTenant` found none, for the user. */
export function tenantProblem(config: RuntimeConfig, wanted: string | undefined): string {
  const known = config.tenants.map((t) => t.id).join(', ');
  return `${wanted !== undefined ? `no tenant "${wanted}"` : 'several tenants are configured: name one with --tenant'} (tenants: ${known})`;
}

/**
 * The configuration for a runtime a command builds in-process: the runtime's JSON logs stay at `warn`
 * unless `INTRABOT_LOG_LEVEL` asks otherwise, so the command's own output stays readable.
 */
export function quietConfig(config: RuntimeConfig, env: Readonly<Record<string, string | undefined>>): RuntimeConfig {
  return env.INTRABOT_LOG_LEVEL ? config : { ...config, log_level: 'warn' };
}

/**
 * In sandbox mode the platform is the emulator: a command that talks to it needs it running.
 * Answers the message to print when it is not, undefined when all is well (or not in sandbox mode).
 */
export async function sandboxProblem(config: RuntimeConfig): Promise<string | undefined> {
  if (config.mode !== 'sandbox') return undefined;
  const url = config.tenants[0]?.base_url ?? `http://127.0.0.1:${config.sandbox_port}`;
  if (await isListening(`${url}/_sandbox/clock`)) return undefined;
  return `no sandbox is running on ${url} (sandbox mode: no tenant is configured). Start it with \`npm start\` or \`intrabot sandbox\`.`;
}

/**
 * The configuration a command works with, or undefined after printing why it is invalid (the
 * message names the key): commands exit 1 on it instead of throwing.
 */
export function cliConfig(
  io: { env: Record<string, string | undefined>; cwd: string; stderr(text: string): void },
  command: string,
): RuntimeConfig | undefined {
  try {
    return loadConfig({ env: io.env, cwd: io.cwd });
  } catch (error) {
    io.stderr(`intrabot ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  }
}
