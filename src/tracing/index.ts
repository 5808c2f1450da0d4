export { startTracing, type TracingHandle, type TracingLogger } from './start-tracing';
export { tracingConfig, type TracingConfig } from './tracing-config';
export { TraceCarrierSchema, type TraceCarrier } from './trace-carrier';
export { traceLogFields } from './spans';
