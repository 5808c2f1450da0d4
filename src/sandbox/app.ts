import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { checkRequestAddress } from '../request-address';
import type { SandboxContext } from './context';
import { ApiRouter } from './http/api-router';
import { FaultTable } from './http/faults';
import { RequestLog, clip, redactPath } from './http/request-log';
import { SandboxHttpError } from './http/sandbox-error';
import { registerCoreControl } from './control/core';
import { registerRefsControl } from './control/refs';
import { registerRootPage } from './root-page';
import { registerPlayground } from './playground/playground-routes';
import type { SandboxModule, SeedOptions } from './module';
import { seedBase } from './seed/base';
import { coverageReport, registerNotImplemented } from './coverage';

const API_PREFIX = '/api/open/v1';
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export interface SandboxApp {
  app: FastifyInstance;
  router: ApiRouter;
  faults: FaultTable;
  requests: RequestLog;
  reset(options: SeedOptions): void;
}

/**
 * The emulated platform as a Fastify app: the Open API under `/api/open/v1` and the control API
 * under `/_sandbox`. `createSandbox` listens on a port; tests drive it there over real HTTP.
 */
export function buildSandboxApp(ctx: SandboxContext, modules: readonly SandboxModule[]): SandboxApp {
  const app = Fastify({ logger: false, bodyLimit: 1_048_576, trustProxy: false });
  const faults = new FaultTable();
  const requests = new RequestLog();

  const reset = (options: SeedOptions): void => {
    ctx.db.transaction(() => {
      ctx.db.clear();
      ctx.limiter.reset();
      seedBase(ctx);
      for (const module of modules) module.seed?.(ctx, options);
    });
  };

  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof SandboxHttpError) {
      void reply.headers(error.headers).code(error.status);
      // spec: Errors — 404 has no body
      return error.status === 404 ? reply.send() : reply.send({ error: error.code, message: error.message });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply
        .code(status)
        .send({ error: status === 413 ? 'payload_too_large' : 'bad_request', message: error instanceof Error ? error.message : 'Bad request' });
    }
    process.emitWarning(`sandbox: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return reply.code(500).send({ error: 'server_error', message: 'The sandbox failed to handle this request.' });
  });

  // spec: Errors — 404 has no body (an unknown path is an unknown resource to a client)
  app.setNotFoundHandler((request, reply) =>
    request.url.startsWith(API_PREFIX)
      ? reply.code(404).send()
      : reply.code(404).send({ error: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}` }),
  );

  app.addHook('onRequest', async (request) => {
    // by the route matched, not the raw URL: the router decodes the path, so /%5Fsandbox/reset reaches /_sandbox/reset
    if (request.url.startsWith('/_sandbox') || request.routeOptions.url?.startsWith('/_sandbox')) checkControlCaller(request);
    if (!request.url.startsWith(API_PREFIX)) return;
    const fault = faults.take(request.method, request.url.split('?')[0] ?? request.url);
    if (!fault) return;
    // injected latency is real time: it simulates a slow network, not the passing of platform time
    if (fault.latency_ms) await new Promise((resolve) => setTimeout(resolve, fault.latency_ms));
    if (fault.status) throw new SandboxHttpError(fault.status, fault.status >= 500 ? 'server_error' : 'fault_injected', `Injected fault (${fault.status}).`);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // the platform's Date header follows its clock: clients measure clock skew with it
    void reply.header('date', new Date(ctx.now()).toUTCString());
    if (request.url.startsWith(API_PREFIX)) (request as { loggedResponse?: unknown }).loggedResponse = payload;
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    if (!request.url.startsWith(API_PREFIX)) return;
    requests.add({
      at: ctx.nowIso(),
      method: request.method,
      path: redactPath(request.url),
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime),
      token_name: null,
      request_body: redactPath(clip(request.body) ?? '') || null,
      response_body: clip((request as { loggedResponse?: unknown }).loggedResponse),
    });
  });

  const router = new ApiRouter(app, ctx);
  void app.register(
    async (api) => {
      // multipart bodies (media, avatars) are read whole and parsed with FormData (see http/forms.ts)
      api.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: 110 * 1_048_576 }, (_req, body, done) => done(null, body));
      const scoped = new ApiRouter(api, ctx);
      for (const module of modules) module.api?.(scoped, ctx);
      registerNotImplemented(scoped);
      router.registered.push(...scoped.registered);
    },
    { prefix: API_PREFIX },
  );

  registerCoreControl(app, ctx, { reset, faults, requests, coverage: () => coverageReport(router) });
  registerRefsControl(app, ctx);
  registerRootPage(app);
  registerPlayground(app, ctx);
  for (const module of modules) module.control?.(app, ctx);
  for (const module of modules) module.start?.(ctx);

  return { app, router, faults, requests, reset };
}

/**
 * The control API resets, seeds and moves the clock of the "platform": loopback callers only, addressed
 * to a loopback name (a DNS-rebinding page addresses its own), and no change from another web page's
 * `Origin` (a cross-site form or fetch). The rule is src/request-address.ts's, the runtime's admin routes'.
 */
function checkControlCaller(request: FastifyRequest): void {
  if (!LOOPBACK.has(request.ip)) throw new SandboxHttpError(403, 'forbidden', 'The sandbox control API answers loopback callers only.');
  const verdict = checkRequestAddress(
    { method: request.method, host: request.headers.host, origin: request.headers.origin },
    { surface: 'the sandbox control API' },
  );
  if (!verdict.ok) throw new SandboxHttpError(403, verdict.rule, verdict.message);
}
