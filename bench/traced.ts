import { createServer, type Server } from 'node:http';
import { createInterface } from 'node:readline';
import { webhookSecretName } from '../src/bots/provision/provision-bot';
import { startTracing, type TracingHandle } from '../src/tracing';
import { setTracingOn } from '../src/tracing/tracing-switch';
import { benchFile } from './lib/child';
import type { DeliveryTarget } from './lib/deliveries';
import { startBenchRuntime, type BenchRuntime } from './lib/start-runtime';

/**
 * The tracing sides of `bench/ingest.ts`: the same runtime as its SQLite side (`startBenchRuntime`,
 * the `slow` bot), with tracing switched on as an operator does it, by `OTEL_EXPORTER_OTLP_ENDPOINT`:
 * the OpenTelemetry SDK, its batch span processor (default settings) and the OTLP/HTTP exporter (protobuf),
 * sending to a collector stand-in in this process that reads and discards what it is sent (so its own
 * cost counts against tracing: the comparison is on the safe side). Its own process, because the SDK is
 * process-wide and must not touch the sides measured without it.
 *
 * With `tracing: false` it is the same process with tracing off (no SDK loaded): the other side of the
 * comparison, run the same way, so the ratio measures tracing and not two different processes.
 *
 * Spoken to in lines (see `lib/traced-client.ts`): `{"op":"start","tracing":true}` → `{"port", "target"}`,
 * `{"op":"cpu"}` → `{"cpuUs"}`, `{"op":"exported"}` → `{"requests", "bytes"}` (what the collector
 * received), `{"op":"tracing","on":false}` → `{}` (a process started with tracing switches its span
 * helpers off or on again, the SDK staying loaded: the bench's paired phases). When its stdin ends it
 * closes the runtime, flushes the SDK and exits.
 */
export type TracedMessage = { op: 'start'; tracing: boolean } | { op: 'cpu' } | { op: 'exported' } | { op: 'tracing'; on: boolean };

interface Collector {
  server: Server;
  url: string;
  received: { requests: number; bytes: number };
}

async function startCollector(): Promise<Collector> {
  const received = { requests: 0, bytes: 0 };
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (received.bytes += chunk.length));
    request.on('end', () => {
      received.requests += 1;
      // an empty ExportTraceServiceResponse, as a collector answers protobuf
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, received };
}

async function main(): Promise<void> {
  let collector: Collector | undefined;
  let tracing: TracingHandle | undefined;
  let runtime: BenchRuntime | undefined;
  const answer = (value: unknown): boolean => process.stdout.write(`${JSON.stringify(value)}\n`);
  try {
    for await (const line of createInterface({ input: process.stdin })) {
      if (!line.trim()) continue;
      const message = JSON.parse(line) as TracedMessage;
      if (message.op === 'start') {
        collector = await startCollector();
        if (message.tracing) {
          tracing = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: 'intrabot-bench' });
          if (!tracing.enabled) throw new Error('tracing did not switch on');
        }
        runtime = await startBenchRuntime({ bots: ['slow'], botsDir: benchFile('bots') });
        const tenant = runtime.runtime.inspect().config.tenants[0]!;
        const secret = await runtime.store.secrets.get(webhookSecretName(tenant.id, 'slow'));
        if (!secret) throw new Error('the slow bot was not provisioned: no webhook secret in the store');
        const target: DeliveryTarget = { secret, customer: tenant.customer ?? 'sandbox', eventPrefix: tenant.event_prefix };
        answer({ port: Number(new URL(runtime.runtime.inspect().url!).port), target });
      } else if (message.op === 'tracing') {
        if (!tracing?.enabled) throw new Error('this process was started without tracing: it has nothing to switch');
        setTracingOn(message.on, process.env.OTEL_TRACES_SAMPLER);
        answer({});
      } else if (message.op === 'cpu') {
        const used = process.cpuUsage();
        answer({ cpuUs: used.user + used.system });
      } else {
        await tracing?.flush();
        answer(collector?.received ?? { requests: 0, bytes: 0 });
      }
    }
  } finally {
    await runtime?.close();
    await tracing?.shutdown();
    collector?.server.closeAllConnections();
    collector?.server.close();
  }
}

await main();
