import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors';
import { startTracing, tracingConfig } from '../../src/tracing';
import { carrierOf, inSpan } from '../../src/tracing/spans';
import { OtlpReceiver } from '../helpers/otlp-receiver';

describe('tracing configuration from the standard OTEL_* variables', () => {
  it('is off when no OTEL variable is set, and then loads nothing and stores no trace context', async () => {
    expect(tracingConfig({})).toEqual({ enabled: false });
    const tracing = await startTracing({});
    expect(tracing.enabled).toBe(false);
    const seen = await inSpan('anything', {}, async (span, trace) => ({ span, carrier: carrierOf(trace) }));
    expect(seen).toEqual({ span: undefined, carrier: undefined });
  });

  it('is on with an OTLP endpoint, sending to its /v1/traces path', () => {
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      enabled: true,
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      defaultServiceName: 'intrabot',
    });
  });

  it('encodes protobuf, as OTLP does by default, and JSON when OTEL_EXPORTER_OTLP_PROTOCOL asks for it', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracingConfig(endpoint)).toMatchObject({ protocol: 'http/protobuf' });
    expect(tracingConfig({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toMatchObject({ protocol: 'http/json' });
    expect(tracingConfig({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toMatchObject({
      protocol: 'http/protobuf',
    });
  });

  it('takes a traces endpoint as it is given', () => {
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otel.example/ingest' })).toMatchObject({
      enabled: true,
      url: 'https://otel.example/ingest',
    });
  });

  it('is on with OTEL_TRACES_EXPORTER=otlp alone, to the default local collector', () => {
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: 'otlp' })).toMatchObject({ enabled: true, url: 'http://localhost:4318/v1/traces' });
  });

  it('is off with OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED=true, whatever endpoint is set', () => {
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({ enabled: false });
    expect(tracingConfig({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({ enabled: false });
  });

  it('names the variable of a value it cannot honour', () => {
    const cases: [Record<string, string>, string][] = [
      [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER'],
      [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL'],
      [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    ];
    for (const [env, key] of cases) {
      let error: unknown;
      try {
        tracingConfig(env);
      } catch (thrown) {
        error = thrown;
      }
      expect(error, key).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).key).toBe(key);
      expect((error as ConfigError).message).toMatch(new RegExp(`^${key}: `));
    }
  });

  it('sends OTLP protobuf to <endpoint>/v1/traces when no protocol is named', async () => {
    const receiver = new OtlpReceiver();
    const url = await receiver.listen();
    const tracing = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: url });
    try {
      expect(tracing.enabled).toBe(true);
      await inSpan('a step', {}, async () => undefined);
      await tracing.flush();
      // the test's collector decodes JSON only: it lists what else came
      expect(receiver.undecoded).toEqual(['POST /v1/traces application/x-protobuf']);
    } finally {
      await tracing.shutdown();
      await receiver.close();
    }
  });
});
