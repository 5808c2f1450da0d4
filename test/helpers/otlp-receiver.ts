import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, decoded. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** `service.name` of the resource that sent it. */
  service: string | undefined;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }[] }[];
  }[];
}

/**
 * A collector stand-in: an HTTP server taking `POST /v1/traces` with an OTLP JSON body (what
 * `@opentelemetry/exporter-trace-otlp-http` sends), decoding every span it is sent.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Requests that were not an OTLP JSON trace export: method, path and content type. */
  readonly undecoded: string[] = [];
  private readonly server: Server;

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.startsWith('application/json')) {
          this.undecoded.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
          // a trace export in another encoding is taken (as a collector would), just not decoded
          res.writeHead(req.method === 'POST' && req.url === '/v1/traces' ? 200 : 404).end();
          return;
        }
        this.spans.push(...decode(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  async close(): Promise<void> {
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}

function decode(body: OtlpExport): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service = attributesOf(resourceSpans.resource?.attributes)['service.name'];
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId || undefined,
        name: span.name,
        kind: span.kind,
        attributes: attributesOf(span.attributes),
        service: typeof service === 'string' ? service : undefined,
      })),
    );
  });
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    if (value.stringValue !== undefined) out[key] = value.stringValue;
    else if (value.intValue !== undefined) out[key] = Number(value.intValue);
    else if (value.boolValue !== undefined) out[key] = value.boolValue;
    else if (value.doubleValue !== undefined) out[key] = value.doubleValue;
  }
  return out;
}
