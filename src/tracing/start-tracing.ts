import { context, diag, DiagLogLevel, propagation, trace, type DiagLogger } from '@opentelemetry/api';
import type { Logger } from '../log';
import { tracingConfig, type TracingConfig } from './tracing-config';

type EnabledTracing = Extract<TracingConfig, { enabled: true }>;
import { setTracingOn, tracingOn } from './tracing-switch';

/** The process's tracing, as `startTracing` left it. */
export interface TracingHandle {
  readonly enabled: boolean;
  /** Sends the spans ended so far (tests, and before a process exits). */
  flush(): Promise<void>;
  /** Sends what is left and unregisters the SDK; spans are no longer recorded. */
  shutdown(): Promise<void>;
}

/** Where tracing reports itself: that it is on, and the exporter's problems (a collector that is down). */
export type TracingLogger = Pick<Logger, 'info' | 'warn'>;

const OFF: TracingHandle = { enabled: false, flush: async () => undefined, shutdown: async () => undefined };

let started: Promise<TracingHandle> | undefined;

/**
 * Switches tracing on when the standard `OTEL_*` variables ask for it (see `tracingConfig`): the
 * OpenTelemetry SDK, a batch span processor and the OTLP/HTTP exporter (protobuf or JSON) are loaded then, and only
 * then; unconfigured, nothing is imported and every span helper calls straight through. The SDK is
 * process-wide (the API keeps one global provider), so a second call answers the first one's handle.
 * Exporter problems (a collector that is down) are logged as warnings, never thrown into the runtime.
 *
 * @example
 * const tracing = await startTracing(process.env, logger);
 * // ... run the runtime ...
 * await tracing.shutdown();
 */
export function startTracing(env: Readonly<Record<string, string | undefined>>, logger?: TracingLogger): Promise<TracingHandle> {
  const config = tracingConfig(env);
  if (!config.enabled) return Promise.resolve(OFF);
  started ??= register(config, logger).catch((error: unknown) => {
    started = undefined;
    throw error;
  });
  return started;
}

async function register(config: EnabledTracing, logger: TracingLogger | undefined): Promise<TracingHandle> {
  const { url, defaultServiceName } = config;
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes, detectResources, envDetector }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node').then(commonJs),
    // protobuf costs the runtime less to encode than JSON
    (config.protocol === 'http/json' ? import('@opentelemetry/exporter-trace-otlp-http') : import('@opentelemetry/exporter-trace-otlp-proto')).then(commonJs),
    import('@opentelemetry/resources').then(commonJs),
  ]);
  if (logger) diag.setLogger(diagLogger(logger), DiagLogLevel.WARN);
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the default name
  const resource = resourceFromAttributes({ 'service.name': defaultServiceName }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))] });
  // the W3C trace-context propagator, and no context manager: intrabot hands each step its trace context
  // (see TraceContext), and on Node 20 an AsyncLocalStorage one turns on promise hooks for every promise
  provider.register({ contextManager: null });
  // the SDK reads its sampler from the process's environment
  setTracingOn(true, process.env.OTEL_TRACES_SAMPLER?.trim());
  logger?.info({ endpoint: new URL(url).origin }, `tracing: sending spans over OTLP/HTTP (${config.protocol})`);
  return {
    enabled: true,
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      if (!tracingOn()) return;
      setTracingOn(false);
      started = undefined;
      // a collector that is down loses the last spans, and is no reason for a shutdown to fail
      await provider
        .shutdown()
        .catch((error: unknown) => logger?.warn({}, `tracing: the last spans could not be sent: ${error instanceof Error ? error.message : String(error)}`));
      trace.disable();
      context.disable();
      propagation.disable();
      diag.disable();
    },
  };
}

/**
 * The exports of a CommonJS package loaded with `import()`: Node (and tsx) give them by name beside
 * `default`; the CLI's bundle (`bin/build.mjs`, esbuild) gives them as `default` alone.
 */
function commonJs<T extends object>(namespace: T): T {
  const keys = Object.keys(namespace);
  return keys.length === 1 && keys[0] === 'default' ? (namespace as { default: T }).default : namespace;
}

function diagLogger(logger: TracingLogger): DiagLogger {
  // a component's logger passes its name first (`OTLPExportDelegate`, message...)
  const warn = (...parts: unknown[]): void =>
    logger.warn({}, `tracing: ${parts.map((part) => (part instanceof Error ? part.message : String(part))).join(' ')}`);
  return { error: warn, warn, info: () => undefined, debug: () => undefined, verbose: () => undefined };
}
