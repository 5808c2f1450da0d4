/**
 * The one registry of intrabot's error codes. Every error intrabot throws on purpose is an
 * `IntrabotError` whose `code` is a key of `ERROR_CODES`; the HTTP status is what the runtime's
 * error handler answers with when such an error reaches a route. Callers tell errors apart by
 * `code` (or `instanceof`), never by message text.
 *
 * Modules add their own subclasses next to the code that throws them, but the code itself is
 * registered here so that the docs and the error handler have one list to check against.
 */
export const ERROR_CODES = {
  // bad input (ours or a bot author's): the message names the field
  invalid_input: { status: 400, summary: 'A value failed validation; the message names the field.' },
  invalid_config: { status: 500, summary: 'Configuration is invalid or incomplete; the message names the key.' },
  invalid_manifest: { status: 500, summary: "A bot's manifest or module is invalid; the message names the file and field." },

  // talking to the platform (src/api)
  api_unauthorized: { status: 502, summary: 'The platform rejected the token (401).' },
  api_forbidden: { status: 502, summary: 'The token lacks a scope, or the feature is disabled (403).' },
  api_not_found: { status: 502, summary: 'The platform has no such resource (404).' },
  api_validation: { status: 502, summary: 'The platform refused the body (422); the message names the field.' },
  api_rate_limited: { status: 502, summary: 'The platform answered 429; retry after the given delay.' },
  api_server_error: { status: 502, summary: 'The platform answered 5xx.' },
  api_http_error: { status: 502, summary: 'The platform answered with another unexpected status.' },
  api_network: { status: 502, summary: 'The platform could not be reached.' },
  api_timeout: { status: 504, summary: 'The platform did not answer in time.' },
  api_uncertain_write: { status: 502, summary: 'A write may or may not have reached the platform; reconcile before resending.' },
  api_bad_response: { status: 502, summary: "The platform's answer did not match the documented shape." },
  api_foreign_link: { status: 502, summary: 'A pagination link pointed at another host and was not followed.' },
  invalid_token: { status: 500, summary: 'The configured token is not a platform token (it must start with svc_).' },

  // receiving webhooks (src/webhooks)
  signature_missing: { status: 401, summary: 'The Signature or Timestamp header is missing.' },
  signature_mismatch: { status: 401, summary: 'The signature does not match the body.' },
  signature_stale: { status: 401, summary: 'The Timestamp header is outside the 5-minute window.' },
  unknown_tenant: { status: 404, summary: 'No tenant has that id.' },
  unknown_bot: { status: 404, summary: 'No bot has that name.' },
  customer_mismatch: { status: 403, summary: "The envelope's customer is not the tenant's." },
  payload_too_large: { status: 413, summary: 'The body is larger than the limit.' },
  unsupported_media_type: { status: 415, summary: 'The body is not JSON.' },
  invalid_payload: {
    status: 422,
    summary:
      "A signed delivery's payload lacks a field its event's type promises; the message names the field. Acknowledged, kept as a dead letter, never handed to a handler.",
  },

  // the runtime's own HTTP surface
  unauthorized: { status: 401, summary: 'Missing or wrong credentials.' },
  forbidden: { status: 403, summary: 'The credentials lack a permission; the message names it.' },
  foreign_host: {
    status: 403,
    summary: 'An admin, console or sandbox-control request was addressed to a name other than a loopback one or INTRABOT_PUBLIC_URL (DNS rebinding guard).',
  },
  foreign_origin: { status: 403, summary: "A change to an admin, console or sandbox-control route came from another web page's Origin." },
  not_found: { status: 404, summary: 'No such route or resource.' },
  conflict: { status: 409, summary: 'The request conflicts with the current state.' },
  too_many_attempts: { status: 429, summary: 'Too many failed sign-ins (the console); wait for Retry-After.' },

  // store
  store_unavailable: { status: 503, summary: 'The store cannot be reached.' },
  secret_key_missing: { status: 500, summary: 'INTRABOT_SECRET_KEY is required to encrypt secrets at rest.' },
  secret_undecryptable: { status: 500, summary: 'A stored secret cannot be decrypted with the configured key.' },

  // handlers and jobs
  handler_timeout: { status: 500, summary: 'A bot handler ran past its time limit.' },
  internal: { status: 500, summary: 'An unexpected error.' },
  unstubbed_call: { status: 500, summary: 'testBot: a handler called the platform API where no stub answers; the message names the call and how to stub it.' },
  template_error: { status: 500, summary: 'A template is missing or failed to render; the message names the template.' },
  job_aborted: { status: 503, summary: 'A scheduled job was aborted because the scheduler is stopping.' },
  conformance_mismatch: { status: 500, summary: 'A conformance check found the host answering differently from the spec; the message says how.' },
  conformance_skipped: { status: 500, summary: 'A conformance check could not run against this host; the message says why.' },
  alerts_not_queued: { status: 503, summary: 'Accepted alerts could not be queued for sending; the monitoring tool should retry.' },
  alert_target_missing: {
    status: 422,
    summary:
      "An alert input's target names a wall the tenant does not have (a configuration error found at provisioning); the message names the target and the wall.",
  },
  alert_source_unreachable: {
    status: 503,
    summary: "An alert source's own service could not be reached (SNS's signing certificate, a subscription's confirmation URL); the source should retry.",
  },
  fetch_failed: {
    status: 502,
    summary:
      "A URL a bot's helper read (a feed, a calendar) answered an error status, did not answer in time, or could not be reached; the message names the host and the reason.",
  },
  unparsable_document: { status: 422, summary: 'A feed or calendar a bot read could not be parsed; the message says what was wrong.' },
  bot_user_pending: {
    status: 503,
    summary: "A queued message waits for its bot's user: provisioning has not finished on this runtime; the outbox sends it once it has.",
  },
  proxy_share_exceeded: {
    status: 429,
    summary: 'The API proxy answered 429 itself: its share of the token budget is spent while the bots have work queued; wait for Retry-After.',
  },
} as const satisfies Record<string, { status: number; summary: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface IntrabotErrorOptions {
  cause?: unknown;
  /** Machine-readable details safe to show to a caller (never secrets). */
  details?: Record<string, unknown>;
}

/** Base class of every error intrabot throws on purpose. */
/**
 * Seconds a caller is told to wait after a 503 (the store is unavailable, the scheduler stopping...): the
 * same everywhere, monitoring tools included.
 */
export const RETRY_AFTER_S = 30;

export class IntrabotError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: IntrabotErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.details = options.details;
  }

  /** Headers an answer with this error carries: a 503 says when to retry. */
  responseHeaders(): Record<string, string> {
    return this.status === 503 ? { 'retry-after': String(RETRY_AFTER_S) } : {};
  }

  /** How an answer with this error is logged: server faults as errors; a caller's fault not at all. */
  get logLevel(): 'error' | 'warn' | undefined {
    return this.status >= 500 ? 'error' : undefined;
  }

  toJSON(): { error: ErrorCode; message: string; details?: Record<string, unknown> } {
    return this.details ? { error: this.code, message: this.message, details: this.details } : { error: this.code, message: this.message };
  }
}

/** Bad input: the message always names the field (`path` is the zod-style path, e.g. `awards.1.user_id`). */
export class InvalidInputError extends IntrabotError {
  readonly field: string;
  /**
   * What is wrong without the field's name (`expected string, received number`), for a caller that
   * names the field itself (a manifest error: `bot.yaml:4 config.cities: ...`); the message otherwise.
   */
  readonly problem: string;
  constructor(field: string, message: string, options: IntrabotErrorOptions & { problem?: string } = {}) {
    const { problem, ...rest } = options;
    super('invalid_input', message, { ...rest, details: { field, ...rest.details } });
    this.field = field;
    this.problem = problem ?? message;
  }
}

/** Configuration that cannot work: names the key (env var or yaml path). */
export class ConfigError extends IntrabotError {
  readonly key: string;
  constructor(key: string, message: string, options: IntrabotErrorOptions = {}) {
    super('invalid_config', message, { ...options, details: { key, ...options.details } });
    this.key = key;
  }
}

export function isIntrabotError(error: unknown): error is IntrabotError {
  return error instanceof IntrabotError;
}
