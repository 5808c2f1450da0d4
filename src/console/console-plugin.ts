import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { answerWithError } from '../error-response';
import { IntrabotError } from '../errors';
import { parseOrThrow } from '../validation';
import { pageSecurityHeaders, sendPageAsset } from '../web/page-assets';
import { loadConsoleAssets, type ConsoleAssets } from './console-assets';
import type { ConsoleDeps } from './console-deps';
import { authorize, checkLocal, checkSameOrigin, SignInThrottle, type Access, type GuardOptions } from './console-guard';
import { ConsoleSessions, SESSION_COOKIE, cookieValue, sameToken } from './console-sessions';
import { ConsoleStream } from './console-stream';
import { DeliveryQuerySchema, OutboxQuerySchema, type ConsoleSection } from './console-views';
import { redactSecrets } from './redact-secrets';
import { AuditQuerySchema } from './views/audit-view';

export interface ConsoleOptions {
  /** How often the live stream reads the sections while someone watches (default 1 s on the clock). */
  streamIntervalMs?: number;
  /** The page's files (default: the package's `src/console/public`). */
  assets?: ConsoleAssets;
}

const SignInSchema = z.strictObject({ token: z.string().min(1).max(1_000) });
const IdSchema = z.string().min(1).max(200);
/** Configured secrets are read again after this long (a provisioning run may add webhook secrets). */
const SECRETS_TTL_MS = 5_000;

/**
 * The web console at `/console` (issue #15): bots, a live deliveries timeline with replay, the
 * outbox, the rate budgets over time, jobs with "run now", alert inputs, the audit log (issue #16).
 * Static ES modules (Preact and htm, served from the installed packages: no CDN, no build step) over
 * JSON routes under `/console/api/` and a server-sent event stream.
 *
 * Guard: the admin routes' rule. Loopback callers addressing a loopback name only; outside sandbox
 * mode the admin token, given once to sign in and exchanged for an HttpOnly, SameSite=Strict
 * session cookie (or sent as `Authorization: Bearer` by scripts), and no console at all while no
 * admin token is configured. Changes (replay, retry, drop, run now) also need the console's own
 * header and origin. Every answer is scrubbed of the configured secrets.
 *
 * @example
 * registerConsole(app, consoleDepsFrom({ ...runtimeParts }));
 */
export function registerConsole(app: FastifyInstance, deps: ConsoleDeps, options: ConsoleOptions = {}): void {
  const assets = options.assets ?? loadConsoleAssets();
  const sessions = new ConsoleSessions(deps.clock);
  const guard: GuardOptions = { mode: deps.mode, adminToken: deps.adminToken, sessions, publicUrl: deps.publicUrl };
  const throttle = new SignInThrottle(deps.clock);
  const scrub = secretScrubber(deps);
  const stream = new ConsoleStream({
    clock: deps.clock,
    intervalMs: options.streamIntervalMs ?? 1_000,
    read: async (section) => scrub(JSON.stringify(await readSection(deps, section))),
    onError: (section, error) => app.log.warn({ err: error, section }, 'console: a section could not be read'),
  });
  const access = new WeakMap<FastifyRequest, Access>();

  void app.register(async (scope) => {
    scope.setErrorHandler(answerWithError('console'));
    scope.addHook('onRequest', async (request, reply) => {
      checkLocal(request, { publicUrl: deps.publicUrl });
      void reply.headers(pageSecurityHeaders(assets.csp));
    });
    scope.addHook('preClose', async () => stream.close());

    // relative: under a host app's prefix, /x/console goes to /x/console/
    scope.get('/console', async (_request, reply) => reply.redirect('console/', 302));
    scope.get('/console/', async (request, reply) => sendAsset(assets, 'index.html', request, reply));
    scope.get<{ Params: { '*': string } }>('/console/*', async (request, reply) => sendAsset(assets, request.params['*'], request, reply));

    void scope.register(async (api) => {
      api.addHook('onRequest', async (request, reply) => {
        void reply.header('cache-control', 'no-store');
        if (request.routeOptions.url?.endsWith('/console/api/session')) return;
        access.set(request, authorize(request, guard));
      });
      api.addHook('preHandler', async (request) => {
        if (request.method !== 'GET') checkSameOrigin(request, access.get(request));
      });
      api.addHook('onSend', async (_request, _reply, payload) => (typeof payload === 'string' ? scrub(payload) : payload));
      registerSession(api, deps, guard, throttle);
      registerReads(api, deps);
      registerActions(api, deps, () => stream.nudge());
      api.get('/console/api/stream', (request, reply) => openStream(stream, request, reply, access.get(request), sessions));
    });
  });
}

/** What the page asks first: which mode, whether a sign-in is needed, whether it has one. */
function registerSession(api: FastifyInstance, deps: ConsoleDeps, guard: GuardOptions, throttle: SignInThrottle): void {
  api.get('/console/api/session', async (request) => {
    const off = deps.mode === 'connected' && !deps.adminToken;
    const tokenRequired = deps.mode === 'connected';
    const signedIn = !off && (!tokenRequired || guard.sessions.alive(cookieValue(request.headers.cookie, SESSION_COOKIE)));
    return { mode: deps.mode, tokenRequired, off, signedIn, ...(deps.playgroundUrl ? { playground: deps.playgroundUrl } : {}) };
  });

  api.post('/console/api/session', async (request, reply) => {
    checkSameOrigin(request, undefined);
    if (deps.mode === 'sandbox') return { signedIn: true };
    if (!deps.adminToken) throw new IntrabotError('forbidden', 'the console is off: set INTRABOT_ADMIN_TOKEN to use it');
    const wait = throttle.waitMs();
    if (wait > 0) {
      void reply.header('retry-after', String(Math.ceil(wait / 1_000)));
      throw new IntrabotError('too_many_attempts', 'too many failed sign-ins: wait a minute');
    }
    const { token } = parseOrThrow(SignInSchema, request.body, 'body');
    if (!sameToken(token, deps.adminToken)) {
      throttle.failed();
      throw new IntrabotError('unauthorized', 'wrong admin token');
    }
    const session = guard.sessions.create();
    void reply.header(
      'set-cookie',
      `${SESSION_COOKIE}=${session.id}; Path=${cookiePath(request)}; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(session.maxAgeMs / 1_000)}`,
    );
    return { signedIn: true };
  });

  api.delete('/console/api/session', async (request, reply) => {
    checkSameOrigin(request, undefined);
    guard.sessions.end(cookieValue(request.headers.cookie, SESSION_COOKIE));
    void reply.header('set-cookie', `${SESSION_COOKIE}=; Path=${cookiePath(request)}; HttpOnly; SameSite=Strict; Max-Age=0`);
    return { signedIn: false };
  });
}

function registerReads(api: FastifyInstance, deps: ConsoleDeps): void {
  api.get('/console/api/bots', async () => deps.bots());
  api.get('/console/api/deliveries', async (request) => deps.deliveries(parseOrThrow(DeliveryQuerySchema, request.query, 'query')));
  api.get('/console/api/outbox', async (request) => deps.outbox(parseOrThrow(OutboxQuerySchema, request.query, 'query')));
  api.get('/console/api/rate', async () => deps.rateBudget());
  api.get('/console/api/jobs', async () => deps.jobs());
  api.get('/console/api/alerts', async () => deps.alertInputs());
  api.get('/console/api/audit', async (request) => deps.audit(parseOrThrow(AuditQuerySchema, request.query, 'query')));
}

function registerActions(api: FastifyInstance, deps: ConsoleDeps, changed: () => void): void {
  api.post<{ Params: { id: string } }>('/console/api/deliveries/:id/replay', async (request) => {
    const id = parseOrThrow(IdSchema, request.params.id, 'id');
    if (!(await deps.replay(id))) throw new IntrabotError('not_found', `no dead or waiting delivery ${id} (or it is being handled right now)`);
    changed();
    return { ok: true, id };
  });
  api.post<{ Params: { id: string } }>('/console/api/outbox/:id/retry', async (request) => {
    const id = parseOrThrow(IdSchema, request.params.id, 'id');
    if (!(await deps.retryOutbox(id))) throw new IntrabotError('not_found', `no dead or waiting outbox entry ${id} (or it is being sent right now)`);
    changed();
    return { ok: true, id };
  });
  api.post<{ Params: { id: string } }>('/console/api/outbox/:id/drop', async (request) => {
    const id = parseOrThrow(IdSchema, request.params.id, 'id');
    if (!(await deps.dropOutbox(id))) throw new IntrabotError('not_found', `no dead or pending outbox entry ${id} (or it is being sent right now)`);
    changed();
    return { ok: true, id };
  });
  api.post<{ Params: { tenant: string; bot: string } }>('/console/api/bots/:tenant/:bot/pause', async (request) => {
    const { tenant, bot } = request.params;
    const paused = await deps.pauseBot(tenant, bot, request.body ?? {});
    changed();
    return { ok: true, tenant, bot, ...paused };
  });
  api.post<{ Params: { tenant: string; bot: string } }>('/console/api/bots/:tenant/:bot/resume', async (request) => {
    const { tenant, bot } = request.params;
    const resumed = await deps.resumeBot(tenant, bot, request.body ?? {});
    changed();
    return { ok: true, tenant, bot, ...resumed };
  });
  api.post<{ Params: { tenant: string; bot: string; job: string } }>('/console/api/jobs/:tenant/:bot/:job/run', async (request, reply) => {
    const { tenant, bot, job } = request.params;
    const started = await deps.runJob(tenant, bot, job);
    if (!started) throw new IntrabotError('not_found', `no scheduled job ${job} of bot ${bot} on tenant ${tenant}`);
    changed();
    return reply.code(202).send(started);
  });
}

/** The live stream: server-sent events, written by hand on the raw response (Fastify does not stream them itself). */
function openStream(stream: ConsoleStream, request: FastifyRequest, reply: FastifyReply, access: Access | undefined, sessions: ConsoleSessions): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.write('retry: 3000\n\n');
  let open = true;
  const close = (): void => {
    if (!open) return;
    open = false;
    unsubscribe();
    raw.end();
  };
  const unsubscribe = stream.subscribe({
    send: (event, data) => {
      if (open) raw.write(`event: ${event}\ndata: ${data}\n\n`);
    },
    // an open console counts as use: a wall screen stays signed in (up to the session's 12 hours)
    allowed: () => access?.by !== 'session' || sessions.touch(access.session),
    close,
  });
  request.raw.on('close', close);
}

/** The console's path (`/console`, or under a host app's prefix `/x/console`): the cookie goes there only. */
function cookiePath(request: FastifyRequest): string {
  const path = request.url.split('?')[0] ?? '';
  return path.endsWith('/api/session') ? path.slice(0, -'/api/session'.length) : '/console';
}

function readSection(deps: ConsoleDeps, section: ConsoleSection): Promise<unknown> {
  switch (section) {
    case 'bots':
      return deps.bots();
    case 'deliveries':
      return deps.deliveries(DeliveryQuerySchema.parse({}));
    case 'outbox':
      return deps.outbox(OutboxQuerySchema.parse({}));
    case 'rate':
      return deps.rateBudget();
    case 'jobs':
      return deps.jobs();
    case 'alerts':
      return deps.alertInputs();
    case 'audit':
      return deps.audit(AuditQuerySchema.parse({}));
  }
}

/** Scrubs text of the configured secrets, re-reading them every few seconds. */
function secretScrubber(deps: ConsoleDeps): (text: string) => Promise<string> {
  let cached: { at: number; secrets: Promise<readonly string[]> } | undefined;
  return async (text) => {
    const now = deps.clock.now();
    if (!cached || now - cached.at > SECRETS_TTL_MS || now < cached.at) {
      const secrets = deps.secrets();
      cached = { at: now, secrets };
      // a failed read is not remembered; until one succeeds nothing is answered (see below)
      secrets.catch(() => (cached = undefined));
    }
    return redactSecrets(text, await cached.secrets);
  };
}

function sendAsset(assets: ConsoleAssets, name: string, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const sent = sendPageAsset(assets, name, request, reply);
  if (!sent) throw new IntrabotError('not_found', `the console has no file ${name}`);
  return sent;
}
