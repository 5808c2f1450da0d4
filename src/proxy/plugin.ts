import type { Readable } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock';
import { answerWithError } from '../error-response';
import { IntrabotError } from '../errors';
import { checkAccess } from './access-check';
import { auditEntry, writeAudit, type AuditEntry, type AuditLogger } from './audit';
import { forwardRequest, sendAnswer, type ProxyClient } from './forward';
import { createKeyRing, parseProxyConfig, presentedKey, type KeyRing, type ProxyCaller, type ProxyKeyConfig } from './proxy-keys';
import { proxiedPath, requestedPath } from './proxy-path';
import { readBody } from './read-body';
import type { ShareBudget } from './share-budget';
import { ProxyShareExceededError, ShareGate } from './share-gate';

export interface ProxyTenant {
  id: string;
  client: ProxyClient;
}

export interface ProxyOptions {
  /** The configured tenants, each with its API client (sharing the runtime's rate limiter). */
  tenants: readonly ProxyTenant[];
  /** Served at `/api/open/v1/*`; default the first tenant. Others are at `/t/:tenant/api/open/v1/*`. */
  defaultTenant?: string;
  /** Proxy keys from `proxy.keys`; validated here (errors name `proxy.keys.<i>.<field>`). */
  keys: readonly ProxyKeyConfig[];
  /** Default 0.5 (`proxy.bot_share`). */
  botShare?: number;
  /** Largest buffered request body in bytes (`proxy.body_limit`); multipart is streamed. Default 1 MiB. */
  bodyLimit?: number;
  /** `sandbox` adds `sandbox-proxy-key` with every scope; `connected` serves nothing until a key is configured. */
  mode: 'sandbox' | 'connected';
  clock: Clock;
  /** True while the outbox has work queued (for this tenant, or at all). */
  outboxBusy: (tenant: string) => Promise<boolean>;
  /** Where the proxy counts its share; pass `store.rate` to share the count across replicas. */
  budget?: ShareBudget;
  /** Audit lines; default the Fastify request logger. */
  logger?: AuditLogger;
  /** Called with every audit entry (metrics count proxy calls here). */
  onCall?: (entry: AuditEntry) => void;
}

const PREFIX = '/api/open/v1';
const CLIENT_CLOSED = 499;

interface CallState {
  startedAt: number;
  tenant: string;
  caller?: ProxyCaller;
  answeredBy: AuditEntry['answered_by'];
  /** The path as checked and forwarded, once it passed the check (relative to `/api/open/v1`, no query). */
  path?: string;
  audited?: boolean;
}

/**
 * Serves the platform's whole API through the runtime (DESIGN.md: proxy): `ALL /api/open/v1/*` for
 * the default tenant and `ALL /t/:tenant/api/open/v1/*` for any tenant. Callers present a proxy
 * key; the pipeline is authenticate -> check the path -> read body -> check scope -> admit under the
 * share -> forward through the tenant's paced client -> answer (links rewritten) -> audit. The
 * platform token never leaves the client, and no path that could leave `/api/open/v1` (`..`, `\`, an
 * encoded slash, in any encoding: see `apiPathProblem`) reaches the platform.
 *
 * @example
 * await registerProxy(app, {
 *   tenants: [{ id: 'sandbox', client: api }], keys: [], mode: 'sandbox', clock,
 *   outboxBusy: outboxBusyFrom(store.outbox), budget: store.rate,
 * });
 * // curl -H 'Authorization: Bearer sandbox-proxy-key' http://127.0.0.1:3000/api/open/v1/walls
 */
export async function registerProxy(app: FastifyInstance, options: ProxyOptions): Promise<void> {
  const config = parseProxyConfig({ keys: options.keys, bot_share: options.botShare, body_limit: options.bodyLimit });
  const ring = createKeyRing(config.keys, { mode: options.mode });
  const tenants = new Map(options.tenants.map((t) => [t.id, t]));
  const defaultTenant = options.defaultTenant ?? options.tenants[0]?.id;
  const gate = new ShareGate({ clock: options.clock, outboxBusy: options.outboxBusy, share: config.bot_share, budget: options.budget });
  const context: ProxyContext = {
    mode: options.mode,
    clock: options.clock,
    logger: options.logger,
    onCall: options.onCall,
    ring,
    tenants,
    gate,
    bodyLimit: config.body_limit,
    calls: new WeakMap(),
  };
  await app.register(async (proxy) => proxyPlugin(proxy, context, defaultTenant));
}

interface ProxyContext {
  mode: ProxyOptions['mode'];
  clock: Clock;
  logger: AuditLogger | undefined;
  onCall: ProxyOptions['onCall'];
  ring: KeyRing;
  tenants: Map<string, ProxyTenant>;
  gate: ShareGate;
  bodyLimit: number;
  calls: WeakMap<FastifyRequest, CallState>;
}

async function proxyPlugin(proxy: FastifyInstance, ctx: ProxyContext, defaultTenant: string | undefined): Promise<void> {
  // raw bodies stay raw inside this plugin: JSON, multipart, anything, forwarded byte for byte
  proxy.removeAllContentTypeParsers();
  proxy.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  proxy.setErrorHandler(answerWithError('proxy call'));
  proxy.addHook('onResponse', async (request, reply) => audit(ctx, request, reply.statusCode));
  // a caller that hangs up gets no response, but its call is still audited (499, as nginx logs it)
  proxy.addHook('onRequestAbort', async (request) => audit(ctx, request, CLIENT_CLOSED));

  const off = ctx.mode === 'connected' && ctx.ring.size === 0;
  proxy.all(`${PREFIX}/*`, (request, reply) => (off ? proxyOff() : handle(ctx, request, reply, defaultTenant, '')));
  proxy.all<{ Params: { tenant: string } }>(`/t/:tenant${PREFIX}/*`, (request, reply) =>
    off ? proxyOff() : handle(ctx, request, reply, request.params.tenant, `/t/${encodeURIComponent(request.params.tenant)}`),
  );
}

function proxyOff(): never {
  throw new IntrabotError('not_found', 'the API proxy is off: configure at least one key under proxy.keys');
}

async function handle(ctx: ProxyContext, request: FastifyRequest, reply: FastifyReply, tenantId: string | undefined, mount: string): Promise<FastifyReply> {
  const state: CallState = { startedAt: ctx.clock.now(), tenant: tenantId ?? '', answeredBy: 'proxy' };
  ctx.calls.set(request, state);
  const caller = ctx.ring.authenticate(presentedKey(request.headers));
  if (!caller) throw new IntrabotError('unauthorized', 'a valid proxy key is required (Authorization: Bearer <key> or X-Proxy-Key)');
  state.caller = caller;
  const tenant = tenantId === undefined ? undefined : ctx.tenants.get(tenantId);
  if (!tenant) throw new IntrabotError('unknown_tenant', `no tenant has the id ${tenantId ?? '(none configured)'}`);

  const { pathname, search } = proxiedPath(request.raw.url ?? '');
  state.path = pathname;
  const body = await readBody((request.body as Readable | undefined) ?? request.raw, request.headers, ctx.bodyLimit);
  const access = checkAccess(caller, { tenant: tenant.id, method: request.method, path: pathname, body: body.kind === 'buffered' ? body.json : undefined });
  if (!access.ok) throw new IntrabotError('forbidden', access.message, { details: access.missing.length ? { missing_scopes: access.missing } : undefined });
  const share = access.usesTokenBudget ? await ctx.gate.admit(tenant.id) : undefined;

  const answer = await tenant.client.request(forwardRequest(request.method, `${pathname}${search}`, body, abortOnClose(reply)));
  state.answeredBy = 'platform';
  const view = access.usesTokenBudget ? ctx.gate.observe(tenant.id, answer.headers, share) : undefined;
  return sendAnswer(reply, { answer, share: view, platformRoot: tenant.client.root.href, proxyRoot: `${request.protocol}://${request.host}${mount}${PREFIX}` });
}

/** A caller that hangs up stops waiting for the budget: its request is not sent. */
function abortOnClose(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the proxy caller disconnected'));
  });
  return controller.signal;
}

function audit(ctx: ProxyContext, request: FastifyRequest, status: number): void {
  const state = ctx.calls.get(request);
  if (!state || state.audited) return;
  state.audited = true;
  const entry = auditEntry({
    key: state.caller?.name ?? null,
    tenant: state.tenant,
    method: request.method,
    path: state.path ?? requestedPath(request.raw.url ?? '').pathname,
    status,
    duration_ms: Math.max(0, ctx.clock.now() - state.startedAt),
    answered_by: state.answeredBy,
  });
  writeAudit(ctx.logger ?? request.log, entry);
  ctx.onCall?.(entry);
}
