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
 * nothing about internals.
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
    return reply.code(status).send({ error: code, message: error.message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ error: 'internal', message: 'An unexpected error occurred; see the runtime log.' });
}
