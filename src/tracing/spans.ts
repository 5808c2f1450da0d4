import {
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { TraceCarrier } from './trace-carrier';
import { tracingOn } from './tracing-switch';

export { SpanKind };

const TRACER = 'intrabot';

/** The delivery a piece of work belongs to, carried in the context so the outbox entries it queues name it too. */
const DELIVERY_KEY = createContextKey('intrabot.delivery_id');

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent: a trace context stored with an inbox item or an outbox entry. Default: the active span. */
  parent?: TraceCarrier | undefined;
  /** The delivery this work belongs to, for the spans and outbox entries under it. */
  deliveryId?: string | undefined;
  /** Without a stored `parent`, start a new trace rather than join whatever is active (a queue's worker loop). */
  detached?: boolean;
}

/**
 * Runs `fn` inside a span named `name`: the span is the active one for everything `fn` awaits, ends
 * when `fn` settles, and records a throw (`error.type`, status ERROR) before rethrowing it. With tracing
 * off it is `fn(undefined)`.
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!tracingOn()) return fn(undefined);
  let parent = options.parent ? parentContext(options.parent) : options.detached ? ROOT_CONTEXT : context.active();
  const inherited = options.parent ? options.parent.deliveryId : parent.getValue(DELIVERY_KEY);
  const deliveryId = options.deliveryId ?? (typeof inherited === 'string' ? inherited : undefined);
  if (deliveryId !== undefined) parent = parent.setValue(DELIVERY_KEY, deliveryId);
  const attributes = deliveryId === undefined ? options.attributes : { ...options.attributes, 'intrabot.delivery_id': deliveryId };
  const span = trace.getTracer(TRACER).startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, ...(attributes ? { attributes } : {}) }, parent);
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Sets attributes on the active span (the receiver's, once the delivery id is known); nothing when tracing is off. */
export function annotateActiveSpan(attributes: Attributes): void {
  if (!tracingOn()) return;
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** Whether a span is recording in the active context (the receiver's request, say). */
export function activeSpanRecording(): boolean {
  return tracingOn() && trace.getActiveSpan()?.isRecording() === true;
}

/** Runs `fn` with the delivery named in the active context, so the entries its work queues name it too. */
export function withDeliveryId<T>(deliveryId: string, fn: () => T): T {
  if (!tracingOn()) return fn();
  return context.with(context.active().setValue(DELIVERY_KEY, deliveryId), fn);
}

/** Marks a span failed with the error's class or code; never its message (it may quote input). */
export function markFailed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | undefined)?.code;
  span.setAttribute('error.type', typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown');
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** The active trace context, to be stored with an item another process may take; undefined when tracing is off. */
export function activeCarrier(): TraceCarrier | undefined {
  if (!tracingOn()) return undefined;
  const active = context.active();
  const span = trace.getSpan(active);
  if (!span?.isRecording()) return undefined;
  // the W3C form of the span's context, written here rather than through a propagator: this runs on the ingest path
  const { traceId, spanId, traceFlags, traceState } = span.spanContext();
  const carrier: TraceCarrier = { traceparent: `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}` };
  const state = traceState?.serialize();
  if (state) carrier.tracestate = state;
  // no key without a value: the carrier is stored as JSON, where `undefined` is not a value
  const deliveryId = active.getValue(DELIVERY_KEY);
  if (typeof deliveryId === 'string') carrier.deliveryId = deliveryId;
  return carrier;
}

/** The delivery the active work belongs to, when it is one's. */
export function activeDeliveryId(): string | undefined {
  if (!tracingOn()) return undefined;
  const id = context.active().getValue(DELIVERY_KEY);
  return typeof id === 'string' ? id : undefined;
}

function parentContext(carrier: TraceCarrier): Context {
  const headers: Record<string, string> = { traceparent: carrier.traceparent };
  if (carrier.tracestate !== undefined) headers.tracestate = carrier.tracestate;
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** `trace_id` and `span_id` of the active span for a log line (pino's `mixin`); none when tracing is off. */
export function traceLogFields(): Record<string, string> {
  if (!tracingOn()) return {};
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
