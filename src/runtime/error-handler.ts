import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { answerWithError } from '../error-response';

/** The runtime's error handler: `errorResponse`'s mapping, shared with every route group (src/error-response.ts). */
export const handleError = answerWithError('request');

/**
 * The runtime's answer to a URL no route serves. Fastify's default echoes the whole URL, query string
 * included (`?token=...`), and a path may itself carry a secret (`/incoming/<token>`, a signed
 * `/files/` link): this answer echoes nothing of the request.
 */
export function handleNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(404).send({ error: 'not_found', message: `no route answers ${request.method} at this path; ${ROUTES}` });
}

const ROUTES =
  'the runtime serves /hooks/<tenant>/<bot>, /reports/<tenant>/<bot>, /alerts/<bot>/<input>, /api/open/v1/..., /t/<tenant>/api/open/v1/..., /files/..., /openapi.json, /docs, /livez, /healthz, /readyz and /metrics';

/** `handleError` as Fastify's `frameworkErrors` option (errors met before any route: `%zz` in the URL). */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void handleError(error, request, reply);
}
