import {
  context,
  createContextKey,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type { TraceCarrier } from './trace-carrier';
import { tracingOn } from './tracing-switch';

export { SpanKind };

const TRACER = 'intrabot';

/** The tracer of the provider registered now (tests register and shut down several in one process). */
let cached: { provider: TracerProvider; tracer: Tracer } | undefined;

function tracer(): Tracer {
  const provider = trace.getTracerProvider();
  if (cached?.provider !== provider) cached = { provider, tracer: provider.getTracer(TRACER) };
  return cached.tracer;
}

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
 * Runs `fn` inside a span named `name`: the span is the active one for everything `fn` awaits (Node's
 * AsyncLocalStorage, through the SDK's context manager: off the ingest path only), ends
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
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, ...(attributes ? { attributes } : {}) }, parent);
  return context.with(trace.setSpan(parent, span), () => ended(span, () => fn(span)));
}

/** Where a piece of work sits in a trace, handed from step to step explicitly. Undefined when tracing is off. */
export type TraceContext = Context;

/**
 * Runs `fn` inside a span whose parent is given explicitly (a trace context, a stored carrier, or none:
 * a new trace). The span is not made active: `fn` gets the child's trace context to hand on.
 */
export function inExplicitSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: TraceContext | TraceCarrier | undefined },
  fn: (span: Span | undefined, trace: TraceContext | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return fn(undefined, undefined);
  const given = options.parent;
  const parent = given === undefined ? ROOT_CONTEXT : 'traceparent' in given ? parentContext(given as TraceCarrier) : (given as Context);
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, parent);
  return ended(span, () => fn(span, trace.setSpan(parent, span)));
}

/** Runs `work` and ends `span` when it settles, a throw recorded on it first. */
async function ended<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    markFailed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/**
 * The W3C form of a trace context's span, to be stored with an item another process may take: the
 * `traceparent` (and `tracestate`) alone, as small as the ingest path can write it. A span the sampler
 * left out is carried too (its flags say so), so the steps after it are left out with it rather than
 * start traces of their own.
 */
export function carrierOf(traceContext: TraceContext | undefined): TraceCarrier | undefined {
  const span = traceContext === undefined ? undefined : trace.getSpan(traceContext);
  return span !== undefined && isSpanContextValid(span.spanContext()) ? w3cCarrier(span) : undefined;
}

/** Runs `fn` with `traceContext` as the active one, for steps whose spans find their parent in the context (an alert input's dispatch). */
export function withActiveTrace<T>(traceContext: TraceContext | undefined, fn: () => T): T {
  return traceContext === undefined ? fn() : context.with(traceContext, fn);
}

function w3cCarrier(span: Span): TraceCarrier {
  // written here rather than through a propagator: this runs on the ingest path
  const { traceId, spanId, traceFlags, traceState } = span.spanContext();
  const carrier: TraceCarrier = { traceparent: `00-${traceId}-${spanId}-${traceFlags < 16 ? '0' : ''}${traceFlags.toString(16)}` };
  const state = traceState?.serialize();
  if (state) carrier.tracestate = state;
  return carrier;
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
  if (span === undefined || !isSpanContextValid(span.spanContext())) return undefined;
  const carrier = w3cCarrier(span);
  // no key without a value: the carrier is stored as JSON, where `undefined` is not a value
  const deliveryId = active.getValue(DELIVERY_KEY);
  if (typeof deliveryId === 'string') carrier.deliveryId = deliveryId;
  return carrier;
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

/** The span of a trace context, if it has one. */
export function spanOf(traceContext: TraceContext): Span | undefined {
  return trace.getSpan(traceContext);
}
