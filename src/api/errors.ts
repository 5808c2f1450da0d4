import { IntrabotError, type ErrorCode } from '../errors';

/**
 * Errors of the API client, one class per case (spec: Errors). Each carries the request's
 * `method`, its `path` (query dropped, incoming-webhook token redacted) and the platform's
 * `platformStatus` (`status` stays the runtime's own answer status from the registry). Messages
 * and `toJSON()` never contain a token: every text that came from outside goes through
 * `redactSecrets` first.
 */

const TOKEN_PATTERN = /svc_[A-Za-z0-9._~+/=-]+/g;
/** A path separator as a server may read it: `/`, `\`, or either percent-encoded. */
const SEPARATOR = String.raw`(?:[/\\]|%2f|%5c)`;
/** `/incoming/<token>`: the token runs to the next separator, query or fragment, and no further. */
const INCOMING_PATTERN = new RegExp(String.raw`(${SEPARATOR}incoming${SEPARATOR})((?:(?!%2f|%5c)[^/\\?#\s])+)`, 'gi');

/**
 * Replaces bearer tokens and incoming-webhook URL tokens in any text with `[redacted]`. Only the
 * token goes: the rest of a path stays readable (`/incoming/[redacted]/../x`), and a dot segment in
 * the token's place is no token.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(TOKEN_PATTERN, 'svc_[redacted]')
    .replace(INCOMING_PATTERN, (match, head: string, token: string) => (/^(?:\.|%2e){1,2}$/i.test(token) ? match : `${head}[redacted]`));
}

/** The path safe to show: no query string (it may carry secrets), no incoming-webhook token. */
export function redactPath(path: string): string {
  const withoutQuery = path.split(/[?#]/, 1)[0] ?? '';
  return redactSecrets(withoutQuery);
}

/** Where a failed request was going. `path` is redacted on construction. */
export interface RequestContext {
  method: string;
  path: string;
  /** The platform's HTTP status, when it answered. */
  status?: number | undefined;
}

export interface ApiErrorOptions {
  cause?: unknown;
  details?: Record<string, unknown>;
}

/** Base of every error the client throws about an exchange with the platform. */
export class ApiError extends IntrabotError {
  readonly method: string;
  readonly path: string;
  readonly platformStatus: number | undefined;

  constructor(code: ErrorCode, context: RequestContext, message: string, options: ApiErrorOptions = {}) {
    const path = redactPath(context.path);
    const where = `${context.method} ${path}`;
    const status = context.status === undefined ? '' : ` (${context.status})`;
    super(code, `${where}${status}: ${redactSecrets(message)}`, {
      cause: options.cause,
      details: { method: context.method, path, status: context.status, ...options.details },
    });
    this.method = context.method;
    this.path = path;
    this.platformStatus = context.status;
  }
}

/** 401: the token is invalid or inactive (spec: Authentication 5). */
export class ApiUnauthorizedError extends ApiError {
  constructor(context: RequestContext, message = 'the platform rejected the token') {
    super('api_unauthorized', context, message);
  }
}

/** 403: the token lacks a scope (named in `missingScope` when the message says), or the feature is off. */
export class ApiForbiddenError extends ApiError {
  readonly missingScope: string | undefined;
  constructor(context: RequestContext, message: string) {
    const missingScope = parseMissingScope(message);
    super('api_forbidden', context, message || 'forbidden', { details: { missingScope } });
    this.missingScope = missingScope;
  }
}

/** 404: no such resource (also an employee-scheduled post; spec: Errors). */
export class ApiNotFoundError extends ApiError {
  constructor(context: RequestContext) {
    super('api_not_found', context, 'the platform has no such resource');
  }
}

/** 422: the platform refused the body; `field` is the failing field when the message names one. */
export class ApiValidationError extends ApiError {
  readonly field: string | undefined;
  readonly platformMessage: string;
  constructor(context: RequestContext, message: string, field?: string) {
    const platformMessage = redactSecrets(message || 'validation failed');
    super('api_validation', context, platformMessage, { details: { field } });
    this.field = field;
    this.platformMessage = platformMessage;
  }
}

/** 429: over the rate limit; `retryAfterMs` is how long the platform asked us to wait (`Retry-After`, or a usable `X-RateLimit-Reset`). */
export class ApiRateLimitedError extends ApiError {
  readonly retryAfterMs: number | undefined;
  constructor(context: RequestContext, retryAfterMs: number | undefined) {
    const after = retryAfterMs === undefined ? 'no Retry-After given' : `retry after ${retryAfterMs} ms`;
    super('api_rate_limited', context, `rate limited, ${after}`, { details: { retryAfterMs } });
    this.retryAfterMs = retryAfterMs;
  }
}

/** 5xx from the platform; `retryAfterMs` when it sent `Retry-After` (a 503 in maintenance may). */
export class ApiServerError extends ApiError {
  readonly retryAfterMs: number | undefined;
  constructor(context: RequestContext, message: string, retryAfterMs?: number) {
    super('api_server_error', context, message || 'server error', { details: { retryAfterMs } });
    this.retryAfterMs = retryAfterMs;
  }
}

/** Any other status the client did not expect. */
export class ApiHttpError extends ApiError {
  constructor(context: RequestContext, message: string) {
    super('api_http_error', context, message || 'unexpected status');
  }
}

/**
 * The platform could not be reached or the connection broke. `requestSent` is false only when
 * the request surely never left (connection refused, unknown host): then even a POST may be sent again.
 */
export class ApiNetworkError extends ApiError {
  readonly requestSent: boolean;
  constructor(context: RequestContext, requestSent: boolean, options: ApiErrorOptions = {}) {
    const detail = errorCodeOf(options.cause);
    super('api_network', context, `network failure${detail ? ` (${detail})` : ''}`, {
      cause: options.cause,
      details: { requestSent },
    });
    this.requestSent = requestSent;
  }
}

export type TimeoutPhase = 'connect' | 'headers' | 'body';

/** No answer in time; a `connect` timeout means the request was never sent. */
export class ApiTimeoutError extends ApiError {
  readonly phase: TimeoutPhase;
  readonly requestSent: boolean;
  constructor(context: RequestContext, phase: TimeoutPhase, options: ApiErrorOptions = {}) {
    super('api_timeout', context, `timed out waiting for the ${phase}`, { cause: options.cause, details: { phase } });
    this.phase = phase;
    this.requestSent = phase !== 'connect';
  }
}

/**
 * A write that may or may not have reached the platform (5xx, timeout or broken connection after
 * the body was sent). It is not repeated blindly: the caller checks the platform, then resends or not.
 * `cause` is the original failure.
 */
export class UncertainWriteError extends ApiError {
  constructor(context: RequestContext, cause: ApiError) {
    super('api_uncertain_write', context, `the write may have reached the platform (${cause.code}); reconcile before resending`, {
      cause,
      details: { cause: cause.code },
    });
  }
}

/** The platform's answer did not have the documented shape; `field` names where. */
export class ApiBadResponseError extends ApiError {
  readonly field: string;
  constructor(context: RequestContext, field: string, message: string) {
    super('api_bad_response', context, message, { details: { field } });
    this.field = field;
  }
}

/** A pagination link pointed at another origin; it was not followed (the token stays home). */
export class ForeignLinkError extends ApiError {
  readonly linkOrigin: string;
  constructor(context: RequestContext, linkOrigin: string, expectedOrigin: string) {
    super('api_foreign_link', context, `next link points at ${linkOrigin}, not ${expectedOrigin}; not followed`, {
      details: { linkOrigin },
    });
    this.linkOrigin = linkOrigin;
  }
}

/** The configured token cannot be a platform token (spec: Authentication 1). */
export class InvalidTokenError extends IntrabotError {
  constructor(reason: string) {
    super('invalid_token', `invalid platform token: ${reason}; platform tokens start with svc_ (spec: Authentication)`);
  }
}

/** The scope a 403 message names, such as `write:posts`. */
export function parseMissingScope(message: string): string | undefined {
  return /\b((?:read|write):[a-z_]+)\b/.exec(message)?.[1];
}

/**
 * The field a 422 names: a dotted path with an index (`awards.1.user_id`), a `The x field` phrase,
 * an `x:` prefix, or the first key of an `errors` object when the body has one.
 */
export function parseFailingField(message: string, errors?: unknown): string | undefined {
  // field names are snake_case: a capitalised word before a colon ("Validation failed:") is not one
  const dotted = /\b([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)*\.\d+(?:\.[a-z0-9_]+)*)\b/.exec(message)?.[1];
  if (dotted) return dotted;
  const phrase = /\b[Tt]he ([a-z_][a-z0-9_.]*) field\b/.exec(message)?.[1];
  if (phrase) return phrase;
  const prefix = /^([a-z_][a-z0-9_.]*):/.exec(message)?.[1];
  if (prefix) return prefix;
  if (errors && typeof errors === 'object' && !Array.isArray(errors)) return Object.keys(errors)[0];
  return undefined;
}

function errorCodeOf(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}
