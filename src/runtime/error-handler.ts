import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { IntrabotError } from '../errors';

/**
 * Seconds a caller is told to wait after a 503 (the store is unavailable, the scheduler stopping...):
 * the same as the alert inputs tell monitoring tools.
 */
export const RETRY_AFTER_S = 30;

/**
 * The one mapping from errors to answers (STYLE.md rule 4): an `IntrabotError` answers its registered
 * status with `{ error: code, message }`, and a 503 (a store outage: `store_unavailable`) says when to
 * retry; Fastify's own 4xx (bad JSON, too large) keep their status; anything else is a 500 that says
 * nothing about internals. Also Fastify's `frameworkErrors`: a URL the router cannot decode (`%zz`) or
 * with a parameter over the length limit, whose default answer quotes the raw URL, query string and all.
 */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof IntrabotError) {
    if (error.status >= 500) request.log.error({ err: error }, error.message);
    if (error.status === 503) void reply.header('Retry-After', String(RETRY_AFTER_S));
    return reply.code(error.status).send(error.toJSON());
  }
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) {
    const code = status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'invalid_input';
    return reply.code(status).send({ error: code, message: publicMessage(error as FastifyError) });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ error: 'internal', message: 'An unexpected error occurred; see the runtime log.' });
}

/**
 * The runtime's answer to a URL no route serves. Fastify's default echoes the whole URL, query string
 * included (`?token=...`), and a path may itself carry a secret (`/incoming/<token>`, a signed
 * `/files/` link): this answer echoes nothing of the request.
 */
export function handleNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(404).send({ error: 'not_found', message: `no route answers ${request.method} at this path; ${ROUTES}` });
}

const ROUTES =
  'the runtime serves /hooks/<tenant>/<bot>, /reports/<tenant>/<bot>, /alerts/<bot>/<input>, /api/open/v1/..., /t/<tenant>/api/open/v1/..., /files/..., /openapi.json, /docs, /healthz, /readyz and /metrics';

/** `handleError` as Fastify's `frameworkErrors` option (errors met before any route: `%zz` in the URL). */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void handleError(error, request, reply);
}

/** Fastify's messages that quote the request's URL are replaced; the others name no secret. */
function publicMessage(error: FastifyError): string {
  if (error.code === 'FST_ERR_BAD_URL') return 'the URL path is not valid (a malformed percent-encoding)';
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return 'a segment of the URL path is too long';
  return error.message;
}
