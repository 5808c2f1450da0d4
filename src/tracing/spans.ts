import {
  context,
  createContextKey,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type { TraceCarrier } from './trace-carrier';
import { activatesContexts, followsParentSampling, tracingOn } from './tracing-switch';

export { SpanKind };

/**
 * Where a piece of work sits in a trace: handed from step to step by intrabot's own code (the request to
 * the inbox item, the item to the handler run, the run to the entries it queues and the API requests it
 * makes), never looked up in an "active" context. `startTracing` registers no context manager: on Node 20
 * one turns on promise hooks for every promise of the process, the ingest path's included. (With an SDK
 * the host app registered, each step's context is made active in the app's as well: `activatesContexts`.)
 * Undefined when tracing is off or the work is not traced.
 */
export type TraceContext = Context;

const TRACER = 'intrabot';

/** The delivery a piece of work belongs to, carried in its trace context so the outbox entries it queues name it too. */
const DELIVERY_KEY = createContextKey('intrabot.delivery_id');

/** The tracer of the provider registered now (tests register and shut down several in one process). */
let cached: { provider: TracerProvider; tracer: Tracer } | undefined;

function tracer(): Tracer {
  const provider = trace.getTracerProvider();
  if (cached?.provider !== provider) cached = { provider, tracer: provider.getTracer(TRACER) };
  return cached.tracer;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent: a step's trace context, or one stored with an inbox item or an outbox entry. None: a new trace. */
  parent?: TraceContext | TraceCarrier | undefined;
  /** The delivery this work belongs to, for the spans and outbox entries under it (inherited from the parent otherwise). */
  deliveryId?: string | undefined;
}

/**
 * Runs `fn` inside a span named `name` under `options.parent`: `fn` gets the span and the span's trace
 * context, to hand to the steps under it. The span ends when `fn` settles, a throw recorded on it first
 * (`error.type`, status ERROR). With tracing off it is `fn(undefined, undefined)`.
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span | undefined, trace: TraceContext | undefined) => Promise<T>): Promise<T> {
  if (!tracingOn()) return fn(undefined, undefined);
  const given = options.parent;
  let parent = given === undefined ? ROOT_CONTEXT : isCarrier(given) ? parentContext(given) : given;
  // under a parent the sampler left out, the step is left out too (parent-based sampling): no span is
  // made, and the parent's context, which carries the decision, is handed on
  if (given !== undefined && followsParentSampling() && sampledOut(parent)) {
    return fn(undefined, options.deliveryId === undefined ? parent : parent.setValue(DELIVERY_KEY, options.deliveryId));
  }
  const inherited = given !== undefined && isCarrier(given) ? given.deliveryId : parent.getValue(DELIVERY_KEY);
  const deliveryId = options.deliveryId ?? (typeof inherited === 'string' ? inherited : undefined);
  let attributes = options.attributes;
  if (deliveryId !== undefined) {
    parent = parent.setValue(DELIVERY_KEY, deliveryId);
    attributes = { ...attributes, 'intrabot.delivery_id': deliveryId };
  }
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes }, parent);
  const own = trace.setSpan(parent, span);
  // an app's SDK brought a context manager: its code and instrumentations under this step find the span active
  if (activatesContexts()) return context.with(own, () => ended(span, () => fn(span, own)));
  return ended(span, () => fn(span, own));
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

/** The span of a trace context, if it has one. */
export function spanOf(traceContext: TraceContext | undefined): Span | undefined {
  return traceContext === undefined ? undefined : trace.getSpan(traceContext);
}

/**
 * The W3C form of a trace context, to be stored with an item another process may take: the
 * `traceparent` (and `tracestate`), and the delivery the work belongs to when it is known. A span the
 * sampler left out is carried too (its flags say so), so the steps after it are left out with it rather
 * than start traces of their own.
 */
export function carrierOf(traceContext: TraceContext | undefined): TraceCarrier | undefined {
  const span = spanOf(traceContext);
  if (span === undefined || !isSpanContextValid(span.spanContext())) return undefined;
  // written here rather than through a propagator: this runs on the ingest path
  const { traceId, spanId, traceFlags, traceState } = span.spanContext();
  const carrier: TraceCarrier = { traceparent: `00-${traceId}-${spanId}-${traceFlags < 16 ? '0' : ''}${traceFlags.toString(16)}` };
  const state = traceState?.serialize();
  if (state) carrier.tracestate = state;
  // no key without a value: the carrier is stored as JSON, where `undefined` is not a value
  const deliveryId = traceContext!.getValue(DELIVERY_KEY);
  if (typeof deliveryId === 'string') carrier.deliveryId = deliveryId;
  return carrier;
}

/** Marks a span failed with the error's class or code; never its message (it may quote input). */
export function markFailed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | undefined)?.code;
  span.setAttribute('error.type', typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown');
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** `trace_id` and `span_id` of a trace context's span, to bind to the logger of the work it traces; none without one. */
export function traceLogFields(traceContext: TraceContext | undefined): Record<string, string> {
  const span = spanOf(traceContext);
  if (span === undefined || !isSpanContextValid(span.spanContext())) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** A parent whose span the sampler left out (a valid span context without the sampled flag). */
function sampledOut(parent: Context): boolean {
  const spanContext = trace.getSpanContext(parent);
  return spanContext !== undefined && isSpanContextValid(spanContext) && (spanContext.traceFlags & TraceFlags.SAMPLED) === 0;
}

function isCarrier(parent: TraceContext | TraceCarrier): parent is TraceCarrier {
  return typeof (parent as Partial<TraceCarrier>).traceparent === 'string';
}

function parentContext(carrier: TraceCarrier): Context {
  const headers: Record<string, string> = { traceparent: carrier.traceparent };
  if (carrier.tracestate !== undefined) headers.tracestate = carrier.tracestate;
  return propagation.extract(ROOT_CONTEXT, headers);
}
