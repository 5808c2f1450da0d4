import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { IntrabotError, type ErrorCode } from './errors';

/** What a route answers for an error: status, `{ error, message, details? }`, headers. */
export interface ErrorResponse {
  status: number;
  body: { error: ErrorCode; message: string; details?: Record<string, unknown> };
  headers: Record<string, string>;
}

/**
 * The one mapping from errors to answers (STYLE.md rule 4), for every route of the runtime (the receiver,
 * alert inputs, the proxy, the console and the rest): an `IntrabotError` answers its registered status
 * and code (with its headers: a 503 says when to retry); Fastify's own 4xx (bad JSON, too large) keep
 * their status under our codes; anything else is a 500 that says nothing about internals.
 *
 * @example errorResponse(new InvalidInputError('path', 'path: ...')) // { status: 400, body: { error: 'invalid_input', ... }, headers: {} }
 */
export function errorResponse(error: unknown): ErrorResponse {
  if (error instanceof IntrabotError) return { status: error.status, body: error.toJSON(), headers: error.responseHeaders() };
  const status = (error as Partial<FastifyError> | undefined)?.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const code: ErrorCode = status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'invalid_input';
    return { status, body: { error: code, message: publicMessage(error as FastifyError) }, headers: {} };
  }
  return { status: 500, body: { error: 'internal', message: 'An unexpected error occurred; see the runtime log.' }, headers: {} };
}

/**
 * A Fastify error handler over `errorResponse`: logs server faults (and what an error asks to be logged),
 * then answers. `what` names the route group in the log line of an unexpected error.
 *
 * @example scope.setErrorHandler(answerWithError('alert input'));
 */
export function answerWithError(what: string): (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  return (error, request, reply) => {
    const answer = errorResponse(error);
    logAnswered(error, request, reply, what);
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  };
}

function logAnswered(error: unknown, request: FastifyRequest, reply: FastifyReply, what: string): void {
  if (error instanceof IntrabotError) {
    const level = error.logLevel;
    if (level) request.log[level]({ err: error, ...(error.details ? { details: error.details } : {}) }, error.message);
    return;
  }
  if (errorResponse(error).status < 500) return;
  // a caller that hung up while its request waited is no fault of ours
  if (reply.raw.destroyed) request.log.info({}, `${what}: the caller disconnected before the answer`);
  else request.log.error({ err: error }, `${what} failed`);
}

/** Fastify's messages that quote the request's URL are replaced; the others name no secret. */
function publicMessage(error: FastifyError): string {
  if (error.code === 'FST_ERR_BAD_URL') return 'the URL path is not valid (a malformed percent-encoding)';
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return 'a segment of the URL path is too long';
  return error.message;
}
