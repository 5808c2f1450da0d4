import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPair, type Pair } from '../../src/testing';
import { setTracingOn } from '../../src/tracing/tracing-switch';

/**
 * docs/operations.md, Tracing: an app embedding the runtime that registered an OpenTelemetry SDK of its
 * own (before building the runtime) receives intrabot's spans, without `startTracing` or `OTEL_*`.
 */
describe('tracing with an SDK the host app registered', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let pair: Pair;
  /** The span a runtime-wide middleware finds active while a handler runs. */
  const activeInHandler: (string | undefined)[] = [];
  const looking = async (_input: unknown, _ctx: unknown, next: () => Promise<void>): Promise<void> => {
    activeInHandler.push(trace.getActiveSpan()?.spanContext().spanId);
    await next();
  };

  beforeAll(async () => {
    // with its AsyncLocalStorage context manager, as NodeSDK registers it
    provider.register();
    pair = await startPair({ bots: ['ops'], middleware: [looking] });
  }, 60_000);

  afterAll(async () => {
    await pair?.close();
    await provider.shutdown();
    // the API's globals and the runtime's switch are process-wide: the next test file starts without them
    trace.disable();
    context.disable();
    propagation.disable();
    setTracingOn(false);
  });

  it("records a delivery's spans, receiver to the API request that answered it, in the app's SDK", async () => {
    const refs = await pair.refs();
    const post = await pair.platform.employeePost(refs.employee_ids[2]!, { wall_id: refs.company_wall_id, body: '/oncall' });
    await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (list) => list.length > 0,
    );
    await pair.settle();
    const spans = exporter.getFinishedSpans();
    const server = spans.find((span) => span.name === 'POST /hooks/:tenant/:bot' && span.attributes['intrabot.bot'] === 'ops');
    expect(server).toBeDefined();
    const inTrace = spans.filter((span) => span.spanContext().traceId === server!.spanContext().traceId).map((span) => span.name);
    expect(inTrace).toEqual(expect.arrayContaining(['process inbox', 'handler ops', 'send outbox', 'process outbox', 'POST /posts/{post_id}/comments']));
  });

  it("makes the handler run's span the active one in the app's context manager, for the app's own spans and instrumentations", () => {
    const handlers = exporter.getFinishedSpans().filter((span) => span.name === 'handler ops');
    expect(handlers.length).toBeGreaterThan(0);
    expect(activeInHandler).toEqual(handlers.map((span) => span.spanContext().spanId));
  });
});
