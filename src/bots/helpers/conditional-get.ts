import { IntrabotError } from '../../errors';
import type { BotContext } from '../context';

/** A URL read by a bot's helper answered an error, did not answer in time, or could not be reached. */
export class FetchFailedError extends IntrabotError {
  constructor(
    message: string,
    /** The HTTP status, when the server answered. */
    readonly httpStatus?: number,
    options: { cause?: unknown } = {},
  ) {
    super('fetch_failed', message, options);
  }
}

export interface ConditionalGetOptions {
  /** The store key under which the answer's validators (and body, with `keepBody`) are kept. */
  key: string;
  /** How long the request may take, the body included (default 10 s). */
  timeoutMs?: number;
  /** Keep the body too, so a 304 still answers it (a calendar read again unchanged); default false. */
  keepBody?: boolean;
  /** A larger body fails the request (default 5 MB). */
  maxBytes?: number;
  /** The `Accept` header. */
  accept?: string;
  /** How long what is kept lasts without a new commit (default 30 days). */
  ttlMs?: number;
}

export interface ConditionalGetResult {
  /** The server answered 304 Not Modified to the kept validators. */
  notModified: boolean;
  /** The body: the new one, or on a 304 the kept one (with `keepBody`; otherwise undefined). */
  text: string | undefined;
  /**
   * Keeps this answer's `ETag` and `Last-Modified` (and body) for the next call. Call it once the body
   * has been handled: a run that fails in between reads the same body again next time, instead of
   * being told it has not changed.
   */
  commit(): Promise<void>;
}

interface Kept {
  etag?: string;
  lastModified?: string;
  body?: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_TTL_MS = 30 * 86_400_000;

/** A URL as it may be logged: scheme, host and path; no credentials, no query (either may hold a token). */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/**
 * GETs `url` with the `If-None-Match` / `If-Modified-Since` of the last committed answer (RFC 9110,
 * conditional requests), so an unchanged feed costs its server a 304 and the bot nothing. Throws
 * `FetchFailedError` for an error status, a timeout, a network failure or a body over `maxBytes`; the
 * message names the URL without its query.
 *
 * @example
 * const got = await conditionalGet(ctx, feed.url, { key: `http:${feed.name}` });
 * if (!got.notModified) await postNewItems(parseFeed(got.text!));
 * await got.commit();
 */
export async function conditionalGet(
  ctx: Pick<BotContext<unknown>, 'store' | 'signal'>,
  url: string,
  options: ConditionalGetOptions,
): Promise<ConditionalGetResult> {
  const kept = (await ctx.store.get<Kept>(options.key)) ?? {};
  // a 304 is only of use with a body to answer it, when one is asked for
  const usable = !options.keepBody || kept.body !== undefined;
  const headers: Record<string, string> = { 'user-agent': 'intrabot', ...(options.accept ? { accept: options.accept } : {}) };
  if (usable && kept.etag) headers['if-none-match'] = kept.etag;
  if (usable && kept.lastModified) headers['if-modified-since'] = kept.lastModified;
  const where = describeUrl(url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ctx.signal]);
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  try {
    const res = await fetch(url, { headers, signal, redirect: 'follow' });
    if (res.status === 304) {
      await res.body?.cancel();
      return { notModified: true, text: options.keepBody ? kept.body : undefined, commit: async () => ctx.store.set(options.key, kept, { ttlMs }) };
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new FetchFailedError(`${where} answered ${res.status}`, res.status);
    }
    const text = await readLimited(res, options.maxBytes ?? DEFAULT_MAX_BYTES, where);
    const next: Kept = {
      ...(res.headers.get('etag') ? { etag: res.headers.get('etag')! } : {}),
      ...(res.headers.get('last-modified') ? { lastModified: res.headers.get('last-modified')! } : {}),
      ...(options.keepBody ? { body: text } : {}),
    };
    return { notModified: false, text, commit: async () => ctx.store.set(options.key, next, { ttlMs }) };
  } catch (error) {
    if (error instanceof FetchFailedError) throw error;
    if (signal.aborted && !ctx.signal.aborted) throw new FetchFailedError(`${where} did not answer within ${timeoutMs} ms`, undefined, { cause: error });
    throw new FetchFailedError(`${where} could not be read: ${reasonOf(error)}`, undefined, { cause: error });
  }
}

/** The body as text, failing once it grows past `maxBytes` (a feed that streams for ever, a wrong URL serving a video). */
async function readLimited(res: Response, maxBytes: number, where: string): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new FetchFailedError(`${where} is larger than ${maxBytes} bytes`);
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new FetchFailedError(`${where} is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The cause of a failed fetch, as undici reports it (`ECONNREFUSED`, `ENOTFOUND`...). */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
