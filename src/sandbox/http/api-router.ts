import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';
import { authenticate, requireScope, type AuthInfo } from './auth';

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A handler of a platform API route. It returns the body to send (200 by default, or the route's
 * `status`); returning `undefined` from a route with status 204 sends the empty 204.
 * Throw `SandboxHttpError` (see sandbox-error.ts) for 404/422/403 answers.
 */
export type ApiHandler = (request: FastifyRequest, auth: AuthInfo, reply: FastifyReply) => unknown;
export type PublicHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;

export interface RouteOptions {
  status?: 200 | 201 | 204;
}

/**
 * Registers platform routes under `/api/open/v1` with the spec's order of checks: the bearer token
 * (401), the token's rate limit (429, headers on every answer), the scope (403), then the handler.
 * Paths are written as in the spec (`/walls/{wall_id}/posts`). The router remembers what it
 * registered so the rest of the catalog can answer 501 and `/_sandbox/coverage` can tell.
 */
export class ApiRouter {
  readonly registered: { method: ApiMethod; path: string }[] = [];

  constructor(
    private readonly app: FastifyInstance,
    private readonly ctx: SandboxContext,
  ) {}

  route(methods: ApiMethod | ApiMethod[], path: string, scope: string | null, handler: ApiHandler, options: RouteOptions = {}): void {
    const ctx = this.ctx;
    for (const method of Array.isArray(methods) ? methods : [methods]) {
      this.registered.push({ method, path });
      this.app.route({
        method,
        url: toFastifyPath(path),
        handler: async (request, reply) => {
          const auth = authenticate(ctx, request);
          const headers = ctx.limiter.hit(`token:${auth.token.id}`, ctx.settings.rate_limit_per_minute);
          void reply.headers(headers);
          requireScope(auth, scope);
          const body = await handler(request, auth, reply);
          return send(reply, body, options.status);
        },
      });
    }
  }

  /** A route without a bearer token (incoming webhooks authenticate by the token in the URL). */
  publicRoute(method: ApiMethod, path: string, handler: PublicHandler, options: RouteOptions = {}): void {
    this.registered.push({ method, path });
    this.app.route({
      method,
      url: toFastifyPath(path),
      handler: async (request, reply) => send(reply, await handler(request, reply), options.status),
    });
  }

  /** A route answered by `handler` but not counted as implemented (the 501s of coverage.ts). */
  placeholder(method: ApiMethod, path: string, handler: PublicHandler): void {
    this.app.route({ method, url: toFastifyPath(path), handler: async (request, reply) => send(reply, await handler(request, reply), undefined) });
  }

  has(method: ApiMethod, path: string): boolean {
    return this.registered.some((r) => r.method === method && r.path === path);
  }
}

function send(reply: FastifyReply, body: unknown, status: number | undefined): FastifyReply {
  if (reply.sent) return reply;
  if (status === 204 || (body === undefined && status === undefined)) return reply.code(204).send();
  return reply.code(status ?? 200).send(body);
}

/** `/walls/{wall_id}/posts` → `/walls/:wall_id/posts` */
export function toFastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
