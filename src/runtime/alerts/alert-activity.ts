import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock';

/** One request to an alert input and what it was answered (`AlertNotificationSchema` in the console's views). */
export interface AlertNotificationRecord {
  at: number;
  tenant: string;
  bot: string;
  input: string;
  status: number;
  accepted: number | null;
  queued: number | null;
  error: string | null;
  message: string | null;
}

export interface AlertInputCounts {
  accepted: number;
  refused: number;
  failed: number;
}

/** The alert routes (src/alerts/input-route.ts), with or without a `/t/:tenant` prefix and under any host prefix. */
const ALERT_ROUTE = /(?:^|\/)alerts\/:bot\/:input$/;

/**
 * The alert inputs' recent activity, for the console: each notification a monitoring tool posted,
 * with its answer (alerts accepted and messages queued, or why it was refused), and counts per input
 * since the process started. It listens on the alert routes alone, through hooks it adds as they are
 * declared (`watch`), so the alert code is untouched and no other route pays for it. In memory, per
 * process, the last `keep` notifications.
 *
 * @example
 * const activity = new AlertActivity(clock, 'default');
 * activity.watch(app); // before the alert routes are declared
 */
export class AlertActivity {
  private readonly notifications: AlertNotificationRecord[] = [];
  private readonly counts = new Map<string, AlertInputCounts>();
  private readonly answers = new WeakMap<FastifyRequest, string>();

  constructor(
    private readonly clock: Clock,
    private readonly defaultTenant: string,
    private readonly keep = 200,
  ) {}

  /** Hooks the alert routes declared on `app` from now on (in its child scopes too). */
  watch(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      if (!ALERT_ROUTE.test(route.url)) return;
      route.onSend = [...asArray(route.onSend), this.keepAnswer];
      route.onResponse = [...asArray(route.onResponse), this.record];
    });
  }

  /** The last notifications, newest first. */
  recent(limit = this.keep): AlertNotificationRecord[] {
    return this.notifications.slice(-limit).reverse();
  }

  /** Notifications of one input since start: accepted (2xx), refused (401) and failed (anything else). */
  countsOf(tenant: string, bot: string, input: string): AlertInputCounts {
    return { ...(this.counts.get(keyOf(tenant, bot, input)) ?? { accepted: 0, refused: 0, failed: 0 }) };
  }

  /** The last notification of one input. */
  lastOf(tenant: string, bot: string, input: string): AlertNotificationRecord | undefined {
    return this.notifications.findLast((n) => n.tenant === tenant && n.bot === bot && n.input === input);
  }

  private readonly keepAnswer = async (request: FastifyRequest, _reply: FastifyReply, payload: unknown): Promise<unknown> => {
    // the answers are small JSON (or Slack's "ok"); a stream would be left alone
    if (typeof payload === 'string' && payload.length < 10_000) this.answers.set(request, payload);
    return payload;
  };

  private readonly record = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const params = request.params as { tenant?: string; bot?: string; input?: string };
    const answer = parseAnswer(this.answers.get(request));
    const status = reply.statusCode;
    const entry: AlertNotificationRecord = {
      at: this.clock.now(),
      tenant: params.tenant ?? this.defaultTenant,
      bot: params.bot ?? '',
      input: params.input ?? '',
      status,
      accepted: numberOr(answer.accepted, null),
      queued: numberOr(answer.queued, null),
      error: status >= 400 ? stringOr(answer.error, `http_${status}`) : null,
      message: status >= 400 ? stringOr(answer.message, null) : null,
    };
    this.notifications.push(entry);
    if (this.notifications.length > this.keep) this.notifications.splice(0, this.notifications.length - this.keep);
    const key = keyOf(entry.tenant, entry.bot, entry.input);
    const counts = this.counts.get(key) ?? { accepted: 0, refused: 0, failed: 0 };
    if (status < 300) counts.accepted += 1;
    else if (status === 401) counts.refused += 1;
    else counts.failed += 1;
    this.counts.set(key, counts);
  };
}

function parseAnswer(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  if (text === 'ok') return { ok: true };
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function numberOr<T>(value: unknown, fallback: T): number | T {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function stringOr<T>(value: unknown, fallback: T): string | T {
  return typeof value === 'string' ? value.slice(0, 500) : fallback;
}

function keyOf(tenant: string, bot: string, input: string): string {
  return JSON.stringify([tenant, bot, input]);
}
