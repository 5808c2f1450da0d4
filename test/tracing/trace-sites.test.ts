import { propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { carrierOf, spanOf } from '../../src/tracing/spans';
import { setTracingOn } from '../../src/tracing/tracing-switch';
import { traceApiRequest, traceHttpServer, traceInboxAccept, traceInboxItem, traceOutboxEnqueue } from '../../src/tracing/trace-sites';

// Issue #24, item 2: span names and attributes as the OpenTelemetry semantic conventions have them
// (messaging: `{messaging.operation.name} {destination}`; HTTP: `{method} {route}`, `url.*`, `server.*`).

describe('span names and attributes of the trace sites', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  beforeAll(() => {
    trace.setGlobalTracerProvider(provider);
    setTracingOn(true);
  });
  beforeEach(() => exporter.reset());
  afterAll(async () => {
    setTracingOn(false);
    trace.disable();
    await provider.shutdown();
  });

  const only = () => {
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    return spans[0]!;
  };

  it('names a queue step "{operation} {destination}" with messaging.operation.name and .type, system and message id', async () => {
    await traceInboxAccept({ tenant: 'acme', bot: 'kudos', deliveryId: 'd-1' }, async () => 'ok');
    expect(only()).toMatchObject({
      name: 'send inbox',
      attributes: {
        'messaging.system': 'intrabot',
        'messaging.operation.name': 'send',
        'messaging.operation.type': 'send',
        'messaging.destination.name': 'inbox',
        'messaging.message.id': 'd-1',
      },
    });
    exporter.reset();
    await traceInboxItem({ tenant: 'acme', bot: 'kudos', deliveryId: 'd-1', event: 'post.created' }, async () => 'ok');
    expect(only()).toMatchObject({ name: 'process inbox', attributes: { 'messaging.operation.name': 'process', 'messaging.operation.type': 'process' } });
    exporter.reset();
    await traceOutboxEnqueue({ tenant: 'acme', kind: 'post' }, undefined, async () => ({ id: 'e-1' }));
    expect(only()).toMatchObject({ name: 'send outbox', attributes: { 'messaging.destination.name': 'outbox', 'messaging.message.id': 'e-1' } });
  });

  it("gives a client span url.full without the query string and with an incoming webhook's token redacted", async () => {
    const url = new URL('https://acme.example/api/open/v1/incoming/tok-9f8e7d6c5b4a?email=ada@example.com');
    await traceApiRequest({ method: 'POST', url }, async () => ({ status: 200 }));
    const span = only();
    expect(span.name).toBe('POST');
    expect(span.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.full': 'https://acme.example/api/open/v1/incoming/[redacted]',
      'server.address': 'acme.example',
      'server.port': 443,
      'http.response.status_code': 200,
    });
    expect(JSON.stringify(span.attributes)).not.toMatch(/tok-9f8e7d6c5b4a|ada@example/);
  });

  it('names a server span "{method} {route}" with url.path, never the query string', async () => {
    const request = {
      method: 'POST',
      url: '/alerts/ops/grafana?token=SeCrEt0123',
      protocol: 'http',
      routeOptions: { url: '/alerts/:bot/:input' },
      params: { bot: 'ops' },
      headers: {},
    } as unknown as FastifyRequest;
    await traceHttpServer(request, { statusCode: 202 } as FastifyReply, async () => 'ok');
    const span = only();
    expect(span.name).toBe('POST /alerts/:bot/:input');
    expect(span.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/alerts/:bot/:input',
      'url.path': '/alerts/ops/grafana',
      'url.scheme': 'http',
      'http.response.status_code': 202,
    });
    expect(JSON.stringify(span.attributes)).not.toContain('SeCrEt0123');
  });

  it("keeps a proxied incoming webhook's token and a signed file URL out of a server span's url.path", async () => {
    for (const [url, route, path] of [
      ['/api/open/v1/incoming/tok-9f8e7d6c5b4a', '/api/open/v1/*', '/api/open/v1/incoming/[redacted]'],
      ['/files/m-17.1796000000.c2lnbmF0dXJl/chart.png', '/files/:signed/:name', '/files/[redacted]/chart.png'],
    ] as const) {
      exporter.reset();
      const request = { method: 'GET', url, protocol: 'http', routeOptions: { url: route }, params: {}, headers: {} } as unknown as FastifyRequest;
      await traceHttpServer(request, { statusCode: 200 } as FastifyReply, async () => 'ok');
      expect(only().attributes['url.path']).toBe(path);
    }
  });
});

describe('a step under a parent the sampler left out', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  beforeAll(() => {
    // as startTracing registers it: the W3C propagator (stored parents are read through it), no context manager
    provider.register({ contextManager: null });
    setTracingOn(true);
  });
  afterAll(async () => {
    setTracingOn(false);
    trace.disable();
    propagation.disable();
    await provider.shutdown();
  });

  // a delivery the caller sampled out, as its inbox item stores the decision: the last two hex digits are the flags
  const SAMPLED_OUT = { traceparent: '00-1bf7651916cd43dd8448eb211c80319c-c7ad6b7169203331-00' };
  const item = { tenant: 'acme', bot: 'kudos', deliveryId: 'd-2', event: 'post.created', trace: SAMPLED_OUT };

  it('makes no span for a step under a parent the sampler left out, and hands the decision on (parent-based sampling, the default)', async () => {
    let given: ReturnType<typeof carrierOf>;
    let made: ReturnType<typeof spanOf>;
    await traceInboxItem(item, async (context) => {
      given = carrierOf(context);
      made = spanOf(context);
    });
    expect(exporter.getFinishedSpans()).toEqual([]);
    // the parent's own context goes on, so every later step, here or in another replica, is left out with it
    expect(given!).toEqual({ ...SAMPLED_OUT, deliveryId: 'd-2' });
    expect(made!.spanContext().spanId).toBe('c7ad6b7169203331');
  });

  it('makes the step its own span under a sampled-out parent when the sampler does not follow parents (OTEL_TRACES_SAMPLER=always_on)', async () => {
    setTracingOn(true, 'always_on');
    try {
      let made: ReturnType<typeof spanOf>;
      await traceInboxItem(item, async (context) => void (made = spanOf(context)));
      expect(made!.spanContext().traceId).toBe('1bf7651916cd43dd8448eb211c80319c');
      expect(made!.spanContext().spanId).not.toBe('c7ad6b7169203331');
    } finally {
      setTracingOn(true);
    }
  });
});
