import type { Readable } from 'node:stream';
import { Agent, FormData as UndiciFormData, type Dispatcher } from 'undici';
import type { TimeoutPhase } from './errors';

/**
 * The wire: one undici dispatcher (a keep-alive pool per origin), per-request header and body
 * timeouts, and an AbortSignal. It sends bytes and returns bytes; what a status means is the
 * client's business. Tests pass a MockAgent as the dispatcher.
 */
export interface Timeouts {
  /** Establishing the connection (TCP and TLS). Only applies to the dispatcher created here. */
  connectMs: number;
  /** From sending to the response's headers. */
  headersMs: number;
  /** Between two chunks of the response body. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 };

export type { UndiciFormData };

/** Node's global FormData and undici's are both accepted: undici recognises either by shape. */
export type WireBody = string | Buffer | UndiciFormData | FormData | Readable;

export interface WireRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: WireBody | undefined;
  signal?: AbortSignal | undefined;
}

export interface WireResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  text: string;
}

/** The default dispatcher: keep-alive pools per origin with the connect timeout. */
export function createDispatcher(timeouts: Timeouts): Agent {
  return new Agent({
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    keepAliveTimeout: 10_000,
    connections: 16,
  });
}

export async function sendOnWire(dispatcher: Dispatcher, timeouts: Timeouts, request: WireRequest): Promise<WireResponse> {
  const response = await dispatcher.request({
    origin: request.url.origin,
    path: `${request.url.pathname}${request.url.search}`,
    method: request.method as Dispatcher.HttpMethod,
    headers: request.headers,
    body: wireBody(request.body),
    signal: request.signal ?? null,
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: flattenHeaders(response.headers), text };
}

/**
 * undici serialises only its own FormData class; Node's global FormData (what callers usually
 * build, and what `Caller` takes) is copied into one, files by reference.
 */
function wireBody(body: WireBody | undefined): Dispatcher.DispatchOptions['body'] {
  if (body === undefined) return null;
  if (body instanceof UndiciFormData || !isFormData(body)) return body as Dispatcher.DispatchOptions['body'];
  const form = new UndiciFormData();
  for (const [name, value] of body.entries()) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, value.name);
  }
  return form as unknown as Dispatcher.DispatchOptions['body'];
}

function isFormData(body: WireBody): body is FormData {
  return typeof body === 'object' && Object.prototype.toString.call(body) === '[object FormData]';
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

export type TransportFault = { kind: 'timeout'; phase: TimeoutPhase } | { kind: 'network'; requestSent: boolean };

/** Failures before any byte left: the request surely did not reach the platform. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

const TIMEOUT_CODES: Record<string, TimeoutPhase> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

/** What kind of fault a thrown transport error is; unknown faults count as "maybe sent". */
export function classifyTransportFault(error: unknown): TransportFault {
  for (const code of errorCodes(error)) {
    const phase = TIMEOUT_CODES[code];
    if (phase) return { kind: 'timeout', phase };
    if (NOT_SENT_CODES.has(code)) return { kind: 'network', requestSent: false };
  }
  return { kind: 'network', requestSent: true };
}

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    if ('code' in current && typeof current.code === 'string') codes.push(current.code);
    if (current instanceof AggregateError) codes.push(...current.errors.flatMap(errorCodes));
    current = 'cause' in current ? current.cause : undefined;
  }
  return codes;
}
