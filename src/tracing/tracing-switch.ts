import { ProxyTracerProvider, trace } from '@opentelemetry/api';

/**
 * Whether this process records spans. The OpenTelemetry API keeps its provider in one process-wide
 * global, so this flag is process-wide too: `startTracing` sets it once the SDK is registered, and
 * `followRegisteredSdk` when a host app registered an SDK of its own. While it is off every helper in
 * `src/tracing/` calls straight through (no span object, no context switch, no trace context stored),
 * which is what keeps the ingest path's cost unchanged when tracing is not configured.
 */
let recording = false;

/**
 * Whether each traced step's context is also made the active one in the API's context manager: only for
 * an SDK the host app registered (it brought its own context manager, and may have instrumentations that
 * look for the active span); `startTracing` registers none and hands contexts on explicitly.
 */
let activating = false;

/**
 * Whether the SDK's sampler follows a span's parent (`parentbased_*`, the OpenTelemetry default): then a
 * step under a parent the sampler left out is left out too, so no span need be made for it (the steps
 * hand the parent's context on, which carries the decision). Only for intrabot's own SDK, whose sampler
 * comes from `OTEL_TRACES_SAMPLER`; a host app's SDK may sample otherwise.
 */
let parentBased = false;

/** What the API's global provider hands out while no SDK is registered. */
const NO_SDK = new ProxyTracerProvider().getDelegate();

export function tracingOn(): boolean {
  return recording;
}

export function setTracingOn(on: boolean, sampler: string | undefined = undefined): void {
  recording = on;
  activating = false;
  parentBased = on && (sampler === undefined || sampler === '' || sampler.startsWith('parentbased_'));
}

export function followsParentSampling(): boolean {
  return parentBased;
}

export function activatesContexts(): boolean {
  return activating;
}

/**
 * Switches the span helpers on when an SDK is registered with the OpenTelemetry API already (an app
 * embedding the runtime registered its own `NodeSDK` or `NodeTracerProvider` before building it), so
 * intrabot's spans go to that SDK, and each step's context is made the active one too (the app's own spans
 * and instrumentations inside a handler nest under it). Called by `buildRuntime`; without an SDK it changes nothing.
 */
export function followRegisteredSdk(): void {
  if (recording) return;
  const provider = trace.getTracerProvider();
  const sdk = provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
  if (sdk !== NO_SDK) recording = activating = true;
}
