import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { Clock } from '../clock';
import { InvalidInputError } from '../errors';
import { apiRoot, apiUrl } from './api-url';
import type { CallInput, CallResult, Caller, ItemOf } from './caller';
import { errorFromResponse, errorFromTransport } from './error-mapping';
import { ApiError, ApiRateLimitedError, redactPath, type RequestContext } from './errors';
import { paginatePages, withDefaultPerPage, type PageBody } from './pagination';
import { farRateHeader, parseRateBudget, RATE_WAIT_BOUND_MS, type HeaderBag } from './rate-headers';
import { describeRateNotice, RATE_WAIT_NOTICE_MS, type OnRateNotice } from './rate-notice';
import { MemoryRateLimiter, rateLimitKey, type Pace, type RateLimiter } from './rate-limiter';
import { pageSchema, parseAnswer, parsePage, parseResponse } from './response-shape';
import { DEFAULT_RETRY_POLICY, decideRetry, rateLimitedDelay, withRetry, type RetryPolicy } from './retry';
import { endpointPath, parseBody, rawPayload, requestPayload } from './request-payload';
import type { AnyEndpoint } from './schemas/endpoint';
import { checkToken } from './token';
import { createDispatcher, DEFAULT_TIMEOUTS, sendOnWire, type Timeouts, type UndiciFormData, type WireBody } from './transport';
import type { ClientHooks } from './sent-request';
import { USER_AGENT } from './version';
import type { TraceContext } from '../tracing/spans';
import { traceApiRequest } from '../tracing/trace-sites';
import { tracingOn } from '../tracing/tracing-switch';

/** Where the client logs retries (a pino logger fits). Never given the token. */
export interface ApiLogger {
  warn?(details: Record<string, unknown>, message: string): void;
}

export interface ApiClientOptions {
  /** The customer host, `{base_url}` in the spec; `/api/open/v1` is added. */
  baseUrl: string;
  /** The bearer token; must start with `svc_` (spec: Authentication). */
  token: string;
  clock: Clock;
  /** Default: a keep-alive Agent created (and closed by `close()`) here. Tests pass a MockAgent. */
  dispatcher?: Dispatcher;
  /** Default: an in-memory limiter on `clock`. Pass a shared one to pace several clients together. */
  limiter?: RateLimiter;
  retry?: Partial<RetryPolicy>;
  timeouts?: Partial<Timeouts>;
  userAgent?: string;
  logger?: ApiLogger;
  /** Jitter source; tests pass a fixed one. */
  random?: () => number;
  /** Ids of POST endpoints that are safe to repeat. Default: awards (spec: Award rules 3). */
  repeatableEndpoints?: readonly string[];
  /**
   * Told about pacing a person would notice: a wait for budget or after a 429 of a second or more (the
   * default limiter's waits; a limiter passed in reports its own), and a rate header beyond the window,
   * clamped (once per client). A rate header beyond the window is logged as a warning either way.
   */
  onRateNotice?: OnRateNotice;
  /** Told about every request put on the wire, once answered or failed (metrics count them). */
  hooks?: ClientHooks;
}

/** Per-call knobs beyond the `Caller` contract. */
export interface CallOptions {
  /** Attempts for this call only; 1 = a single attempt (the outbox owns its retries). Pacing still applies. */
  attempts?: number;
  /** This POST may be repeated without harm. */
  repeatable?: boolean;
  /** How its requests are paced (`Pace`): the outbox's sends ask for `spread`. Default `burst`. */
  pace?: Pace;
  /** The trace context of the step making the call (tracing on): its requests' spans go under it. */
  trace?: TraceContext | undefined;
}

/** A request to a path with no endpoint definition (`intrabot api`, the proxy). */
export interface RawRequest {
  method: string;
  /** Relative to `/api/open/v1` (the prefix may be repeated); may carry a query string. */
  path: string;
  query?: Record<string, unknown>;
  /** A JSON body. */
  body?: unknown;
  form?: FormData | UndiciFormData;
  /** A body sent byte for byte with `contentType` (a proxy forwarding what it received). */
  bytes?: { data: Buffer | string; contentType: string };
  signal?: AbortSignal;
  /** `safe`: may be repeated even if it is a POST; `never`: a single attempt. */
  retry?: 'safe' | 'never';
  /** `return`: answer non-2xx statuses (after retries) instead of throwing. Default `throw`. */
  httpErrors?: 'throw' | 'return';
  /** The trace context of the step making the request (tracing on): its spans go under it. */
  trace?: TraceContext | undefined;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON; the text when it is not JSON; null when empty. */
  body: unknown;
}

type PageParser = (body: unknown, context: RequestContext) => PageBody<unknown>;

interface Exchange {
  method: string;
  url: URL;
  body?: WireBody | undefined;
  contentType?: string | undefined;
  signal?: AbortSignal | undefined;
  auth: 'bearer' | 'url-token';
  repeatable: boolean;
  attempts?: number | undefined;
  pace?: Pace | undefined;
  /** The endpoint's path template (`/walls/{wall_id}/posts`), for the request's span. */
  template?: string | undefined;
  /** The step the request is made for, the parent of its span. */
  trace?: TraceContext | undefined;
}

const PAGED_KINDS = new Set(['list', 'meta-list', 'array']);

/** POST /achievements/{id}/awards: an identical row returns the existing award (spec: Award rules 3). */
const DEFAULT_REPEATABLE = ['achievements.award'];

/**
 * The HTTP client of the platform API: validates bodies before sending, paces under the token's
 * budget, retries what is safe to retry, and maps every failure to an error class.
 *
 * @example
 * const client = new ApiClient({ baseUrl: 'https://acme.example', token: process.env.INTRABOT_TOKEN!, clock });
 * const post = await client.call(endpoints['posts.create'], { params: { wall_id: 3 }, body: { body: 'Hello' } });
 * for await (const user of client.paginate(endpoints['users.list'])) console.log(user.id);
 */
export class ApiClient implements Caller {
  /** The API root, `{base_url}/api/open/v1`. */
  readonly root: URL;
  readonly #token: string;
  private readonly clock: Clock;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly limiter: RateLimiter;
  private readonly policy: RetryPolicy;
  private readonly timeouts: Timeouts;
  private readonly userAgent: string;
  private readonly logger: ApiLogger | undefined;
  private readonly random: () => number;
  private readonly repeatable: ReadonlySet<string>;
  /** 429s in a row per limiter key, for the backoff when they name no wait. */
  private readonly rateLimitedStreak = new Map<string, number>();
  private readonly onRateNotice: OnRateNotice | undefined;
  private readonly hooks: ClientHooks | undefined;
  /** A rate header beyond the window was told (once per client: the value is the news, not each answer that repeats it). */
  private farHeaderTold = false;

  constructor(options: ApiClientOptions) {
    this.#token = checkToken(options.token);
    this.root = apiRoot(options.baseUrl);
    this.clock = options.clock;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? createDispatcher(this.timeouts);
    this.onRateNotice = options.onRateNotice;
    this.hooks = options.hooks;
    this.limiter =
      options.limiter ?? new MemoryRateLimiter({ clock: options.clock, onWait: (waitMs) => this.onRateNotice?.({ kind: 'waiting', waitMs, why: 'budget' }) });
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.userAgent = options.userAgent ?? USER_AGENT;
    this.logger = options.logger;
    this.random = options.random ?? Math.random;
    this.repeatable = new Set(options.repeatableEndpoints ?? DEFAULT_REPEATABLE);
  }

  async call<E extends AnyEndpoint>(endpoint: E, input: CallInput<E> & CallOptions = {}): Promise<CallResult<E>> {
    const payload = requestPayload(endpoint, input);
    const url = apiUrl(this.root, endpointPath(endpoint, input.params), input.query);
    const answer = await this.exchange({
      method: endpoint.method,
      url,
      ...payload,
      signal: input.signal,
      auth: endpoint.auth,
      repeatable: input.repeatable ?? this.repeatable.has(endpoint.id),
      attempts: input.attempts,
      pace: input.pace,
      template: endpoint.path,
      trace: input.trace,
    });
    return parseAnswer(endpoint, answer.body, { method: endpoint.method, path: url.pathname }) as CallResult<E>;
  }

  paginate<E extends AnyEndpoint>(endpoint: E, input: CallInput<E> & CallOptions = {}): AsyncIterable<ItemOf<E>> {
    return this.pages(endpoint, input) as AsyncIterable<ItemOf<E>>;
  }

  async request(request: RawRequest): Promise<RawResponse> {
    const url = apiUrl(this.root, request.path, request.query);
    const method = request.method.toUpperCase();
    const exchange: Exchange = {
      method,
      url,
      ...rawPayload(request),
      signal: request.signal,
      auth: isIncomingWebhook(url, this.root) ? 'url-token' : 'bearer',
      repeatable: request.retry === 'safe',
      attempts: request.retry === 'never' ? 1 : undefined,
      trace: request.trace,
    };
    if (request.httpErrors !== 'return') return this.exchange(exchange);
    return this.exchangeReturningErrors(exchange);
  }

  /** Every item of a raw list path, following `links.next` like `paginate`. */
  paginateRequest(request: Pick<RawRequest, 'path' | 'query' | 'signal' | 'trace'>): AsyncIterable<unknown> {
    const first = apiUrl(this.root, request.path, withDefaultPerPage(request.query));
    const auth = isIncomingWebhook(first, this.root) ? 'url-token' : 'bearer';
    const parse: PageParser = (body, context) => parseResponse(pageSchema(z.unknown()), body, context);
    return this.pagesFrom(first, { auth, signal: request.signal, trace: request.trace }, parse);
  }

  /** Closes the dispatcher if this client created it. */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private async *pages(endpoint: AnyEndpoint, input: CallInput<AnyEndpoint> & CallOptions): AsyncGenerator<unknown> {
    if (!PAGED_KINDS.has(endpoint.responseKind)) {
      throw new InvalidInputError('endpoint', `endpoint: ${endpoint.id} answers ${endpoint.responseKind}, not a list`);
    }
    // spec: Pagination: GET /users/{id}/achievements is not paginated, so no per_page there
    const query = endpoint.responseKind === 'array' ? input.query : withDefaultPerPage(input.query);
    const first = apiUrl(this.root, endpointPath(endpoint, input.params), query);
    const each = { auth: endpoint.auth, signal: input.signal, pace: input.pace, trace: input.trace };
    yield* this.pagesFrom(first, each, (body, context) => parsePage(endpoint, body, context));
  }

  /** Every page from `first` on, each request made with `each` (its auth, signal, pacing and trace). */
  private pagesFrom(first: URL, each: Pick<Exchange, 'auth' | 'signal' | 'pace' | 'trace'>, parse: PageParser): AsyncGenerator<unknown> {
    return paginatePages(first, this.root, async (url) => {
      const answer = await this.exchange({ method: 'GET', url, repeatable: false, ...each });
      return parse(answer.body, { method: 'GET', path: url.pathname });
    });
  }

  private async exchangeReturningErrors(exchange: Exchange): Promise<RawResponse> {
    let last: RawResponse | undefined;
    try {
      return await this.exchange(exchange, (answer) => (last = answer));
    } catch (error) {
      const answered = error instanceof ApiError && error.cause instanceof ApiError ? error.cause : error;
      if (last && answered instanceof ApiError && answered.platformStatus !== undefined) return last;
      throw error;
    }
  }

  private exchange(exchange: Exchange, onAnswer?: (answer: RawResponse) => void): Promise<RawResponse> {
    const key = rateLimitKey(exchange.auth === 'bearer' ? this.#token : exchange.url.pathname);
    const context = { method: exchange.method, path: exchange.url.pathname };
    return withRetry(() => (tracingOn() ? traceApiRequest(exchange, () => this.attempt(exchange, key, onAnswer)) : this.attempt(exchange, key, onAnswer)), {
      policy: { ...this.policy, attempts: exchange.attempts ?? this.policy.attempts },
      clock: this.clock,
      random: this.random,
      signal: exchange.signal,
      decide: (error) => decideRetry(error, { method: exchange.method, repeatable: exchange.repeatable }),
      onRetry: ({ attempt, delayMs, error }) => {
        this.logger?.warn?.(
          { ...context, path: redactPath(context.path), attempt, delayMs, error: error instanceof ApiError ? error.code : 'unknown' },
          'retrying a platform request',
        );
        if (error instanceof ApiRateLimitedError && delayMs >= RATE_WAIT_NOTICE_MS)
          this.onRateNotice?.({ kind: 'waiting', waitMs: delayMs, why: 'rate_limited' });
      },
    });
  }

  /** One paced attempt: acquire, send, report the budget, map the outcome. */
  private async attempt(exchange: Exchange, key: string, onAnswer?: (answer: RawResponse) => void): Promise<RawResponse> {
    const context: RequestContext = { method: exchange.method, path: exchange.url.pathname };
    const askedAt = this.clock.now();
    await this.limiter.acquire(key, exchange.signal, exchange.pace ? { pace: exchange.pace } : {});
    const sent = { method: exchange.method, budget: exchange.auth === 'bearer' ? 'token' : 'incoming_webhook', waitedMs: this.clock.now() - askedAt } as const;
    let wire;
    try {
      wire = await sendOnWire(this.dispatcher, this.timeouts, {
        method: exchange.method,
        url: exchange.url,
        headers: this.headersFor(exchange),
        body: exchange.body,
        signal: exchange.signal,
      });
    } catch (error) {
      this.hooks?.sent?.({ ...sent, status: undefined });
      this.limiter.observe(key, undefined);
      if (exchange.signal?.aborted) throw exchange.signal.reason;
      throw errorFromTransport(context, error);
    }
    this.hooks?.sent?.({ ...sent, status: wire.status });
    const now = this.clock.now();
    this.tellFarHeader(wire.headers, now);
    this.limiter.observe(key, parseRateBudget(wire.headers, now) ?? {});
    const answer: RawResponse = { status: wire.status, headers: wire.headers, body: parseBody(wire.text) };
    onAnswer?.(answer);
    if (wire.status !== 429) this.rateLimitedStreak.delete(key);
    if (wire.status >= 200 && wire.status < 300) return answer;
    const error = errorFromResponse({ ...context, status: wire.status }, answer.body, wire.headers, now);
    if (error instanceof ApiRateLimitedError) this.limiter.backoff(key, now + (error.retryAfterMs ?? this.rateLimitedBackoff(key)));
    throw error;
  }

  /** A reset or Retry-After beyond the window: logged as a warning and told, once, with the value received (the wait itself is clamped where the headers are read). */
  private tellFarHeader(headers: HeaderBag, nowMs: number): void {
    if (this.farHeaderTold) return;
    const far = farRateHeader(headers, nowMs);
    if (!far) return;
    this.farHeaderTold = true;
    const notice = { kind: 'clamped', boundMs: RATE_WAIT_BOUND_MS, ...far } as const;
    this.logger?.warn?.({ header: notice.header, received: notice.received, aheadMs: notice.aheadMs, boundMs: notice.boundMs }, describeRateNotice(notice));
    this.onRateNotice?.(notice);
  }

  /** spec: Limits — a 429 naming no wait: back off exponentially per 429 in a row, never retry at once. */
  private rateLimitedBackoff(key: string): number {
    const streak = (this.rateLimitedStreak.get(key) ?? 0) + 1;
    this.rateLimitedStreak.set(key, streak);
    return rateLimitedDelay(streak, this.random);
  }

  private headersFor(exchange: Exchange): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: 'application/json' };
    // spec: Incoming webhooks: the token in the URL authenticates; no bearer token
    if (exchange.auth === 'bearer') headers.authorization = `Bearer ${this.#token}`;
    if (exchange.contentType) headers['content-type'] = exchange.contentType;
    return headers;
  }
}

function isIncomingWebhook(url: URL, root: URL): boolean {
  return url.pathname.startsWith(`${root.pathname}/incoming/`);
}
