import type { Attributes } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { carrierOf, inSpan, SpanKind, spanOf, type TraceContext } from './spans';
import { TraceCarrierSchema, type TraceCarrier } from './trace-carrier';
import { tracingOn } from './tracing-switch';
import { redactPath } from '../api/errors';

/**
 * One helper per traced step, each called from one line at its site, given its parent's trace context
 * and giving `fn` its own (see `TraceContext`). With tracing off each site calls its step directly,
 * without the helper (`tracingOn()` at the site: the untraced path pays a boolean check and hands no
 * step around as a function), and each helper calls straight through as well. Span names and attributes follow the
 * OpenTelemetry semantic conventions (messaging: `{messaging.operation.name} {destination}` names,
 * `messaging.*`; HTTP: `{method} {route}` names, `http.*`, `url.*`, `server.*`, `error.type`) plus
 * `intrabot.bot`, `intrabot.tenant` and `intrabot.delivery_id`; values are names, ids, statuses and
 * paths only: never a secret, a query string (it may name people) or a message body, and a client's
 * `url.full` has an incoming webhook's token redacted.
 */

/** `messaging.system` of intrabot's two durable queues (the semantic conventions allow a system's own name). */
const MESSAGING_SYSTEM = 'intrabot';

/**
 * A request to one of the runtime's routes (`/hooks/...`, `/alerts/...`), as a SERVER span; a `traceparent` the
 * caller sent is its parent. The span is not made active: `fn` gets its trace context to hand on (the
 * receiver gives it to the inbox item), so the ingest path runs no context manager.
 */
export function traceHttpServer<T>(request: FastifyRequest, reply: FastifyReply, fn: (trace: TraceContext | undefined) => Promise<T>): Promise<T> {
  if (!tracingOn()) return fn(undefined);
  const route = request.routeOptions.url ?? 'unknown';
  const params = request.params as Record<string, string | undefined> | undefined;
  // one object, built once: every attribute costs the span processor and the exporter again
  const attributes: Attributes = {
    'http.request.method': request.method,
    'http.route': route,
    'url.path': pathOf(request.url),
    'url.scheme': request.protocol,
  };
  if (params?.tenant !== undefined) attributes['intrabot.tenant'] = params.tenant;
  if (params?.bot !== undefined) attributes['intrabot.bot'] = params.bot;
  const parent = request.headers.traceparent === undefined ? undefined : callerContext(request.headers.traceparent, request.headers.tracestate);
  return inSpan(`${request.method} ${route}`, { kind: SpanKind.SERVER, attributes, parent }, async (span, trace) => {
    try {
      const result = await fn(trace);
      span?.setAttribute('http.response.status_code', reply.statusCode);
      return result;
    } catch (error) {
      const status = (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
      if (typeof status === 'number') span?.setAttribute('http.response.status_code', status);
      throw error;
    }
  });
}

/** Names a request's span once the names are known (an alert input's tenant, bot and input). */
export function nameRequest(trace: TraceContext | undefined, names: { tenant: string; bot: string; alertInput: string }): void {
  spanOf(trace)?.setAttributes({ 'intrabot.tenant': names.tenant, 'intrabot.bot': names.bot, 'intrabot.alert_input': names.alertInput });
}

/**
 * A delivery written to the inbox; `fn` gets the trace context to store with it. Received over HTTP, the
 * item continues the receiver's SERVER span (`delivery.trace`), which gets the delivery's id: one span per
 * delivery on the ingest path, where every microsecond counts (the inbox's `messaging.*` attributes are
 * on the span that takes the item, `process inbox`). Without one (`Runtime.receive`) a PRODUCER span
 * `send inbox` starts the trace.
 */
export function traceInboxAccept<T>(
  delivery: { tenant: string; bot: string; deliveryId: string; trace?: TraceContext | undefined },
  fn: (trace: TraceCarrier | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return fn(undefined);
  const received = spanOf(delivery.trace);
  if (received !== undefined) {
    // sampled out, it records nothing; its context still goes with the item, so the handling is left out too
    received.setAttribute('intrabot.delivery_id', delivery.deliveryId);
    return fn(carrierOf(delivery.trace));
  }
  const attributes = { ...queue('send', 'inbox', delivery.deliveryId), ...names(delivery.tenant, delivery.bot), 'intrabot.delivery_id': delivery.deliveryId };
  return inSpan('send inbox', { kind: SpanKind.PRODUCER, attributes }, (_span, trace) => fn(carrierOf(trace)));
}

/** An inbox item handled (CONSUMER), continuing the trace stored with it, in whichever replica took it. */
export function traceInboxItem<T>(
  item: { tenant: string; bot: string; deliveryId: string; event: string | null; trace?: TraceCarrier | undefined },
  fn: (trace: TraceContext | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return fn(undefined);
  const attributes = {
    ...queue('process', 'inbox', item.deliveryId),
    ...names(item.tenant, item.bot),
    ...(item.event ? { 'intrabot.event': item.event } : {}),
  };
  return inSpan('process inbox', { kind: SpanKind.CONSUMER, attributes, parent: item.trace, deliveryId: item.deliveryId }, (_span, trace) => fn(trace));
}

/** One run of a bot's handler (`on.post.created`, `/oncall`, `report ...`). */
export function traceHandler<T>(
  run: { tenant: string; bot: string; what: string },
  parent: TraceContext | undefined,
  fn: (trace: TraceContext | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return fn(undefined);
  const attributes = { ...names(run.tenant, run.bot), 'intrabot.handler': run.what };
  return inSpan(`handler ${run.bot}`, { attributes, parent }, (_span, trace) => fn(trace));
}

/** An entry written to the outbox (PRODUCER); `fn` gets the trace context to store with it and answers the entry's id. */
export function traceOutboxEnqueue<T extends { id: string }>(
  entry: { tenant: string; kind: string; bot?: string | undefined },
  parent: TraceContext | undefined,
  fn: (trace: TraceCarrier | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return fn(undefined);
  const attributes = { ...queue('send', 'outbox'), ...names(entry.tenant, entry.bot), 'intrabot.outbox.kind': entry.kind };
  return inSpan('send outbox', { kind: SpanKind.PRODUCER, attributes, parent }, async (span, trace) => {
    const result = await fn(carrierOf(trace));
    span?.setAttribute('messaging.message.id', result.id);
    return result;
  });
}

/** An outbox entry sent (CONSUMER), continuing the trace stored with it, in whichever replica took it. */
export function traceOutboxEntry<T>(
  lease: { id: string; target: string; attempts: number },
  record: { entry: { tenant: string; kind: string; bot?: string | undefined }; trace?: TraceCarrier | undefined },
  fn: (trace: TraceContext | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return fn(undefined);
  const attributes = {
    ...queue('process', 'outbox', lease.id),
    ...names(record.entry.tenant, record.entry.bot),
    'intrabot.outbox.kind': record.entry.kind,
    'intrabot.outbox.target': lease.target,
    'intrabot.outbox.attempt': lease.attempts,
  };
  return inSpan('process outbox', { kind: SpanKind.CONSUMER, attributes, parent: record.trace }, (_span, trace) => fn(trace));
}

/**
 * One HTTP request to the platform (CLIENT), under the step that made it (`request.trace`; none: a trace of
 * its own): the method, the host and the path template, never the URL (an incoming webhook's carries its token).
 */
export function traceApiRequest<T extends { status: number }>(
  request: { method: string; url: URL; template?: string | undefined; trace?: TraceContext | undefined },
  fn: () => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return fn();
  const { url } = request;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const attributes: Attributes = {
    'http.request.method': request.method,
    // spec: Incoming webhooks — the URL is the credential: its token is redacted, and the query (it may name people) left out
    'url.full': `${url.origin}${redactPath(url.pathname)}`,
    'server.address': url.hostname,
    'server.port': port,
    ...(request.template === undefined ? {} : { 'url.template': request.template }),
  };
  const name = request.template === undefined ? request.method : `${request.method} ${request.template}`;
  return inSpan(name, { kind: SpanKind.CLIENT, attributes, parent: request.trace }, async (span) => {
    try {
      const answer = await fn();
      span?.setAttribute('http.response.status_code', answer.status);
      return answer;
    } catch (error) {
      const status = (error as { platformStatus?: unknown }).platformStatus;
      if (typeof status === 'number') span?.setAttribute('http.response.status_code', status);
      throw error;
    }
  });
}

/** One run of a scheduled job (by its slot, on demand, or caught up); the run's outcome is set on the span. */
export function traceJob<T extends { outcome: string }>(
  run: { tenant: string; bot: string; job: string; slotMs: number; trigger: string },
  fn: (trace: TraceContext | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return fn(undefined);
  const attributes = {
    ...names(run.tenant, run.bot),
    'intrabot.job': run.job,
    'intrabot.job.slot': new Date(run.slotMs).toISOString(),
    'intrabot.job.trigger': run.trigger,
  };
  return inSpan(`job ${run.job}`, { attributes }, async (span, trace) => {
    const record = await fn(trace);
    span?.setAttribute('intrabot.job.outcome', record.outcome);
    return record;
  });
}

/** What a provisioning action changed on the platform (not `unchanged`, `disable` or `missing`). */
const CHANGES = new Set(['create', 'update', 'reactivate', 'recreate', 'revoke', 'retire']);

/**
 * One tenant's provisioning (at start, or `intrabot provision`): its API requests go under it, so a
 * start-up's reconciling shows as one trace; the counts of what changed are set on the span.
 */
export function traceProvision<T extends { actions: readonly { action: string }[] }>(
  run: { tenant: string; dryRun: boolean },
  fn: (trace: TraceContext | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return fn(undefined);
  const attributes = { ...names(run.tenant, undefined), 'intrabot.provision.dry_run': run.dryRun };
  return inSpan('provision', { attributes }, async (span, trace) => {
    const result = await fn(trace);
    span?.setAttribute('intrabot.provision.changes', result.actions.filter((a) => CHANGES.has(a.action)).length);
    return result;
  });
}

/** A caller's `traceparent` (and `tracestate`) header, when it is one. */
function callerContext(traceparent: string | string[], tracestate: string | string[] | undefined): TraceCarrier | undefined {
  const parsed = TraceCarrierSchema.safeParse({ traceparent, ...(typeof tracestate === 'string' ? { tracestate } : {}) });
  return parsed.success ? parsed.data : undefined;
}

function names(tenant: string | undefined, bot: string | undefined): Attributes {
  return { ...(tenant === undefined ? {} : { 'intrabot.tenant': tenant }), ...(bot === undefined ? {} : { 'intrabot.bot': bot }) };
}

/**
 * A request's path as the route received it, safe to export: no query string (it may carry a token), no
 * incoming-webhook token (the proxy's `/incoming/<token>`) and no signed file capability (`/files/<signed>`).
 */
function pathOf(url: string): string {
  return redactPath(url).replace(/\/files\/[^/]+/, '/files/[redacted]');
}

/**
 * The messaging attributes of a queue step. Our operations are the conventions' own types, so
 * `messaging.operation.name` (the system's name for it, in the span's name) and `.type` agree.
 */
function queue(operation: 'send' | 'process', destination: 'inbox' | 'outbox', messageId?: string): Attributes {
  return {
    'messaging.system': MESSAGING_SYSTEM,
    'messaging.operation.name': operation,
    'messaging.operation.type': operation,
    'messaging.destination.name': destination,
    ...(messageId === undefined ? {} : { 'messaging.message.id': messageId }),
  };
}
