import { z } from 'zod';
import { formatSilenceMatcher, SilenceMatcherSchema, type SilenceMatcher } from './silence-request';

/**
 * Where an Alertmanager answers its v2 API, and how to sign in: a bearer token, or a user and password
 * (basic auth; a password in the URL is read as such and never shown).
 */
export const AlertmanagerConfigSchema = z.object({
  url: z.url({ protocol: /^https?$/, error: 'expected the http(s) URL of an Alertmanager, such as http://alertmanager:9093' }),
  bearer: z.string().min(1).optional(),
  username: z.string().min(1).optional(),
  password: z.string().min(1).optional(),
});
export type AlertmanagerConfig = z.input<typeof AlertmanagerConfigSchema>;

/** A silence as Alertmanager lists it (`GET /api/v2/silences`); unknown fields pass through. */
export const SilenceSchema = z.looseObject({
  id: z.string(),
  status: z.looseObject({ state: z.enum(['active', 'pending', 'expired']) }),
  matchers: z.array(SilenceMatcherSchema.extend({ isEqual: z.boolean().default(true) })),
  startsAt: z.string(),
  endsAt: z.string(),
  createdBy: z.string(),
  comment: z.string(),
});
export type Silence = z.infer<typeof SilenceSchema>;

/** What a new silence says: who made it, why, and from when to when (ms since the epoch). */
export interface NewSilence {
  matchers: SilenceMatcher[];
  startsAt: number;
  endsAt: number;
  createdBy: string;
  comment: string;
}

/** Alertmanager answered with an error, or did not answer; the message is safe to show (no credentials). */
export class AlertmanagerError extends Error {
  override readonly name = 'AlertmanagerError';
  constructor(
    message: string,
    /** The HTTP status, when Alertmanager answered. */
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const TIMEOUT_MS = 10_000;

/**
 * Alertmanager's silences through its v2 API: create, list, expire, and whether the alerts a silence
 * matches still fire. Each call is bounded in time (10 s)
 * and every failure is an `AlertmanagerError` naming the host, never a credential.
 *
 * @example
 * const silences = new AlertmanagerSilences({ url: 'http://alertmanager:9093', bearer: process.env.AM_TOKEN });
 * const id = await silences.create({ matchers, startsAt: ctx.now(), endsAt: ctx.now() + 2 * 3_600_000, createdBy: cmd.user.name, comment: 'disk swap' });
 */
export class AlertmanagerSilences {
  private readonly base: URL;
  private readonly headers: Record<string, string>;

  constructor(config: AlertmanagerConfig) {
    const checked = AlertmanagerConfigSchema.parse(config);
    this.base = new URL(checked.url);
    const username = checked.username ?? decodeURIComponent(this.base.username);
    const password = checked.password ?? decodeURIComponent(this.base.password);
    this.base.username = '';
    this.base.password = '';
    this.headers = { accept: 'application/json' };
    if (checked.bearer) this.headers.authorization = `Bearer ${checked.bearer}`;
    else if (username) this.headers.authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  }

  /** Creates the silence and answers its id. */
  async create(silence: NewSilence, signal?: AbortSignal): Promise<string> {
    const body = {
      matchers: silence.matchers,
      startsAt: new Date(silence.startsAt).toISOString(),
      endsAt: new Date(silence.endsAt).toISOString(),
      createdBy: silence.createdBy,
      comment: silence.comment,
    };
    const answer = await this.call('POST', 'silences', signal, body);
    const parsed = z.object({ silenceID: z.string() }).safeParse(answer);
    if (!parsed.success) throw new AlertmanagerError(`Alertmanager at ${this.base.host} answered without a silenceID`);
    return parsed.data.silenceID;
  }

  /** The silences Alertmanager knows, those of `states` only (default: active and pending), soonest end first. */
  async list(states: readonly Silence['status']['state'][] = ['active', 'pending'], signal?: AbortSignal): Promise<Silence[]> {
    const parsed = z.array(SilenceSchema).safeParse(await this.call('GET', 'silences', signal));
    if (!parsed.success) throw new AlertmanagerError(`Alertmanager at ${this.base.host} answered a silence list it could not read`);
    return parsed.data.filter((s) => states.includes(s.status.state)).sort((a, b) => Date.parse(a.endsAt) - Date.parse(b.endsAt));
  }

  /**
   * How many alerts Alertmanager holds firing that all the matchers select, silenced and inhibited ones
   * included (`GET /api/v2/alerts?filter=...`). Resolved alerts are not listed: 0 means every alert
   * the matchers name has resolved, the way to learn it of silenced alerts, whose resolution
   * Alertmanager does not send.
   */
  async firingCount(matchers: readonly SilenceMatcher[], signal?: AbortSignal): Promise<number> {
    const query = new URLSearchParams({ active: 'true', silenced: 'true', inhibited: 'true', unprocessed: 'true' });
    for (const matcher of matchers) query.append('filter', formatSilenceMatcher(matcher));
    const parsed = z.array(z.looseObject({ labels: z.record(z.string(), z.string()) })).safeParse(await this.call('GET', `alerts?${query}`, signal));
    if (!parsed.success) throw new AlertmanagerError(`Alertmanager at ${this.base.host} answered an alert list it could not read`);
    return parsed.data.length;
  }

  /** Expires the silence now; false when Alertmanager knows no silence by that id. */
  async expire(id: string, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.call('DELETE', `silence/${encodeURIComponent(id)}`, signal);
      return true;
    } catch (error) {
      if (error instanceof AlertmanagerError && isNotFound(error)) return false;
      throw error;
    }
  }

  private async call(method: string, path: string, signal: AbortSignal | undefined, body?: unknown): Promise<unknown> {
    const url = new URL(`api/v2/${path}`, this.base.href.endsWith('/') ? this.base : `${this.base.href}/`);
    const timeout = AbortSignal.timeout(TIMEOUT_MS);
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: body === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (cause) {
      const why = timeout.aborted ? `did not answer within ${TIMEOUT_MS / 1000} s` : 'could not be reached';
      throw new AlertmanagerError(`Alertmanager at ${this.base.host} ${why}`, undefined, { cause });
    }
    const text = await res.text();
    if (!res.ok) throw new AlertmanagerError(`Alertmanager at ${this.base.host} refused: ${res.status} ${errorText(text)}`, res.status);
    if (text === '') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new AlertmanagerError(`Alertmanager at ${this.base.host} answered something other than JSON`, res.status);
    }
  }
}

/** 404 from newer Alertmanagers; 0.25 (Debian 12's) answers 500 "silence not found", with no other sign. */
function isNotFound(error: AlertmanagerError): boolean {
  return error.status === 404 || (error.status === 500 && error.message.endsWith('silence not found'));
}

/** Alertmanager's error body: a JSON string, `{ message }`, or plain text; kept short. */
function errorText(text: string): string {
  let message = text.trim();
  try {
    const parsed = JSON.parse(message) as unknown;
    if (typeof parsed === 'string') message = parsed;
    else if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') message = parsed.message;
  } catch {
    // plain text
  }
  return message.length > 200 ? `${message.slice(0, 200)}...` : message;
}
