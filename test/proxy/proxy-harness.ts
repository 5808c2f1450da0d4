import Fastify, { type FastifyInstance } from 'fastify';
import { createApiClient, type IntrabotApi } from '../../src/api/create-api-client';
import { MemoryRateLimiter, type RateLimiter } from '../../src/api/rate-limiter';
import { AdjustableClock } from '../../src/clock';
import { registerOpenApiRoutes } from '../../src/proxy/openapi-route';
import { registerProxy, type ProxyOptions, type ProxyTenant } from '../../src/proxy/plugin';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';

/** A captured audit line. */
export type LogLine = Record<string, unknown> & { msg: string };

export interface Harness {
  app: FastifyInstance;
  sandbox: Sandbox;
  clock: AdjustableClock;
  limiter: RateLimiter;
  /** The default tenant's client (the bots' client in the shared-budget test). */
  api: IntrabotApi;
  lines: LogLine[];
  /** Calls the sandbox's control API. */
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  /** API requests the sandbox saw, oldest first. */
  platformRequests(): Promise<{ method: string; path: string; status: number }[]>;
  close(): Promise<void>;
}

export interface HarnessOptions extends Partial<Pick<ProxyOptions, 'keys' | 'mode' | 'botShare' | 'bodyLimit' | 'outboxBusy'>> {
  /** A second tenant `acme` on the same sandbox with its own token holding these scopes. */
  secondTenantScopes?: string[];
  /** Only to show what the shared limiter prevents: the proxy's client paced on its own. */
  separateLimiter?: boolean;
}

/** The proxy plugin in a Fastify app, in front of a real sandbox over loopback HTTP. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = new AdjustableClock();
  const sandbox = await createSandbox({ port: 0, clock });
  const limiter = new MemoryRateLimiter({ clock });
  const api = createApiClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, clock, limiter });
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${sandbox.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.status === 204 ? null : response.json();
  };
  // the proxy has its own client for the tenant, paced by the same limiter as the bots' client
  const proxyClient = createApiClient({
    baseUrl: sandbox.baseUrl,
    token: sandbox.token,
    clock,
    limiter: options.separateLimiter ? new MemoryRateLimiter({ clock }) : limiter,
  });
  const tenants: ProxyTenant[] = [{ id: 'sandbox', client: proxyClient }];
  const clients = [api, proxyClient];
  if (options.secondTenantScopes) {
    const { token } = (await control('POST', '/_sandbox/tokens', { name: 'acme', scopes: options.secondTenantScopes })) as { token: string };
    const acme = createApiClient({ baseUrl: sandbox.baseUrl, token, clock, limiter });
    clients.push(acme);
    tenants.push({ id: 'acme', client: acme });
  }
  const lines: LogLine[] = [];
  const app = Fastify();
  await registerProxy(app, {
    tenants,
    keys: options.keys ?? [],
    mode: options.mode ?? 'sandbox',
    clock,
    outboxBusy: options.outboxBusy ?? (async () => false),
    logger: { info: (details, msg) => lines.push({ ...details, msg }) },
    ...(options.botShare === undefined ? {} : { botShare: options.botShare }),
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
  });
  await registerOpenApiRoutes(app);
  await app.ready();
  return {
    app,
    sandbox,
    clock,
    limiter,
    api,
    lines,
    control,
    async platformRequests() {
      const { data } = (await control('GET', '/_sandbox/requests?limit=500')) as { data: { method: string; path: string; status: number }[] };
      return data.reverse();
    },
    async close() {
      await app.close();
      await Promise.all(clients.map((c) => c.close()));
      await sandbox.close();
    },
  };
}

export const SANDBOX_KEY = { authorization: 'Bearer sandbox-proxy-key' };
