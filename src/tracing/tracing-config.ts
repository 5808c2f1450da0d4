import { ConfigError } from '../errors';

/** What the standard `OTEL_*` variables ask of intrabot's tracing. */
export type TracingConfig =
  | { enabled: false }
  | {
      enabled: true;
      /** Where spans are sent: OTLP over HTTP. */
      url: string;
      /** How they are encoded: protobuf (OTLP's default) or JSON. */
      protocol: 'http/protobuf' | 'http/json';
      /** The resource's `service.name` when neither `OTEL_SERVICE_NAME` nor `OTEL_RESOURCE_ATTRIBUTES` names one. */
      defaultServiceName: string;
    };

type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_ENDPOINT = 'http://localhost:4318';

/**
 * Reads the standard variables (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/):
 * tracing is on when `OTEL_TRACES_EXPORTER` names `otlp`, or, left unset, when an OTLP endpoint is given;
 * off when nothing is set, when `OTEL_TRACES_EXPORTER=none` or `OTEL_SDK_DISABLED=true`. A value intrabot
 * cannot honour is a `ConfigError` naming the variable, never a silent fallback.
 *
 * @example
 * tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' });
 * // => { enabled: true, url: 'http://collector:4318/v1/traces', protocol: 'http/protobuf', defaultServiceName: 'intrabot' }
 */
export function tracingConfig(env: Env): TracingConfig {
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { enabled: false };
  const exporters = value(env, 'OTEL_TRACES_EXPORTER')
    ?.split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const tracesEndpoint = value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const endpoint = value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (exporters === undefined && tracesEndpoint === undefined && endpoint === undefined) return { enabled: false };
  if (exporters !== undefined) {
    const other = exporters.find((name) => name !== 'otlp' && name !== 'none');
    if (other !== undefined)
      throw new ConfigError('OTEL_TRACES_EXPORTER', `OTEL_TRACES_EXPORTER: "${other}" is not an exporter intrabot has; use "otlp" (or "none")`);
    if (!exporters.includes('otlp')) return { enabled: false };
  }
  const protocol = protocolOf(env);
  const url = tracesEndpoint ?? `${(endpoint ?? DEFAULT_ENDPOINT).replace(/\/+$/, '')}/v1/traces`;
  checkUrl(tracesEndpoint === undefined ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', url);
  return { enabled: true, url, protocol, defaultServiceName: 'intrabot' };
}

/** OTLP over HTTP, protobuf unless JSON is asked for; gRPC is another port and another transport, not supported. */
function protocolOf(env: Env): 'http/protobuf' | 'http/json' {
  for (const key of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const protocol = value(env, key);
    if (protocol === undefined) continue;
    if (protocol !== 'http/json' && protocol !== 'http/protobuf')
      throw new ConfigError(
        key,
        `${key}: "${protocol}" is not supported; intrabot sends OTLP over HTTP ("http/protobuf" or "http/json"), which a collector takes on port 4318`,
      );
    return protocol;
  }
  return 'http/protobuf';
}

function checkUrl(key: string, url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(key, `${key}: not a URL; expected e.g. http://collector:4318`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(key, `${key}: expected an http:// or https:// URL`);
}

function value(env: Env, key: string): string | undefined {
  const text = env[key]?.trim();
  return text === undefined || text === '' ? undefined : text;
}
