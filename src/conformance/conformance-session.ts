import type { Dispatcher } from 'undici';
import { createApiClient, type IntrabotApi } from '../api/create-api-client';
import { MemoryRateLimiter } from '../api/rate-limiter';
import { AdjustableClock, type Clock } from '../clock';
import type { ConformanceContext } from './check';
import { probeSandbox, type SandboxControl } from './sandbox-control';

export interface ConformanceSessionOptions {
  /** The host under test, `{base_url}`. */
  baseUrl: string;
  token: string;
  /** A second token lacking some scopes, for the 403 check. */
  narrowToken?: string | undefined;
  /** Allow writing checks against a host that is not a sandbox (they always run on a sandbox). */
  allowWrites?: boolean | undefined;
  clock: Clock;
  /** True when `clock` is the sandbox's own (one process); otherwise the clients follow a sandbox's clock over HTTP. */
  clockSharedWithHost?: boolean | undefined;
  /** Default `service` (spec: Events). */
  eventPrefix?: string | undefined;
  dispatcher?: Dispatcher | undefined;
  /**
   * The per-minute budget the clients assume until the host's headers say otherwise (default 60,
   * spec: Limits). Pass a sandbox's raised limit: the client keeps its assumption for the whole
   * first window even when the headers announce more.
   */
  rateLimitPerMinute?: number | undefined;
}

/** The client of the host under test, the context the checks receive, and one `close` for all clients. */
export interface ConformanceSession {
  api: IntrabotApi;
  ctx: ConformanceContext;
  close(): Promise<void>;
}

/**
 * Opens clients on the host and finds out whether it is a sandbox (its control API answers). The
 * clients make a single attempt per request: the suite reports what the host answered, not what a
 * retry made of it.
 *
 * @example
 * const session = await openConformanceSession({ baseUrl: 'https://acme.example', token, clock: createSystemClock() });
 * const results = await runConformance(CONFORMANCE_CHECKS, session);
 * await session.close();
 */
export async function openConformanceSession(options: ConformanceSessionOptions): Promise<ConformanceSession> {
  const probed = await probeSandbox(options.baseUrl, options.dispatcher);
  const { clock, sandbox, putClockBack } = await clockFor(options, probed);
  const clients: IntrabotApi[] = [];
  // one limiter for every client: it keeps a window per token
  const limiter = new MemoryRateLimiter({ clock, defaultLimit: options.rateLimitPerMinute });
  const clientFor = (token: string): IntrabotApi => {
    const client = createApiClient({ baseUrl: options.baseUrl, token, clock, dispatcher: options.dispatcher, limiter, retry: { attempts: 1 } });
    clients.push(client);
    return client;
  };
  const api = clientFor(options.token);
  const ctx: ConformanceContext = {
    baseUrl: options.baseUrl,
    narrow: options.narrowToken ? clientFor(options.narrowToken) : undefined,
    clientFor,
    sandbox,
    allowWrites: sandbox !== undefined || options.allowWrites === true,
    clock,
    eventPrefix: options.eventPrefix ?? 'service',
  };
  return {
    api,
    ctx,
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await putClockBack();
    },
  };
}

/**
 * The clock the clients pace on. A sandbox in another process has its own clock, which checks
 * move (31 minutes for the comment edit window): the clients then follow it, or they would read
 * its `X-RateLimit-Reset` as half an hour away and wait that long. Once the run is over its clock is
 * put back where it would be had nobody moved it (`putClockBack`), so the runtime beside it and the
 * next command do not find the platform half an hour ahead (issue #15).
 */
async function clockFor(
  options: ConformanceSessionOptions,
  sandbox: SandboxControl | undefined,
): Promise<{ clock: Clock; sandbox: SandboxControl | undefined; putClockBack: () => Promise<void> }> {
  if (!sandbox || options.clockSharedWithHost) return { clock: options.clock, sandbox, putClockBack: async () => undefined };
  const start = await sandbox.now();
  // how far the sandbox's clock was from real time before the run: kept as it was
  const offset = start - Date.now();
  const clock = new AdjustableClock({ start });
  let moved = false;
  const following: SandboxControl = {
    ...sandbox,
    async advance(seconds) {
      moved = true;
      await sandbox.advance(seconds);
      clock.set(await sandbox.now());
    },
  };
  const putClockBack = async (): Promise<void> => {
    if (moved) await sandbox.setClock(Date.now() + offset);
  };
  return { clock, sandbox: following, putClockBack };
}
