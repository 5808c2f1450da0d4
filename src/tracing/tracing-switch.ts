/**
 * Whether this process records spans. The OpenTelemetry API keeps its provider in one process-wide
 * global, so this flag is process-wide too: `startTracing` sets it once the SDK is registered. While it
 * is off every helper in `src/tracing/` calls straight through (no span object, no context switch, no
 * trace context stored), which is what keeps the ingest path's cost unchanged when tracing is not
 * configured.
 */
let recording = false;

export function tracingOn(): boolean {
  return recording;
}

export function setTracingOn(on: boolean): void {
  recording = on;
}
