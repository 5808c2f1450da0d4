import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { redactQueryToken } from '../../src/alerts/input-auth';
import { loggerOptions, OneLinePerRequest } from '../../src/runtime/logger';

/** A Fastify app logging as the runtime does, into `lines` (JSON). */
function appLoggingTo(lines: Record<string, unknown>[], level = 'info'): FastifyInstance {
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const options = loggerOptions(level, false) as Record<string, unknown>;
  return Fastify({ logger: { ...options, stream }, logController: new OneLinePerRequest() });
}

describe('request log', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => app?.close());

  it('writes one line per answered request, with method, URL, status and time', async () => {
    const lines: Record<string, unknown>[] = [];
    app = appLoggingTo(lines);
    app.post('/hooks/:tenant/:bot', async (_req, reply) => reply.code(401).send({ error: 'signature_mismatch' }));
    await app.inject({ method: 'POST', url: '/hooks/acme/welcome', payload: {} });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'POST', url: '/hooks/acme/welcome' }, res: { statusCode: 401 } });
    expect(typeof lines[0]!.responseTime).toBe('number');
  });

  it('logs health checks and metrics scrapes only at debug', async () => {
    const lines: Record<string, unknown>[] = [];
    app = appLoggingTo(lines);
    app.get('/healthz', async () => ({ ok: true }));
    app.get('/metrics', async () => '');
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/metrics?x=1' });
    expect(lines).toHaveLength(0);

    const debug: Record<string, unknown>[] = [];
    await app.close();
    app = appLoggingTo(debug, 'debug');
    app.get('/healthz', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/healthz' });
    expect(debug).toMatchObject([{ level: 20, req: { url: '/healthz' } }]);
  });

  it('never writes an incoming-webhook token or a ?token= into the line, routed or not (secrets stay out of logs)', async () => {
    const lines: Record<string, unknown>[] = [];
    app = appLoggingTo(lines);
    app.post('/proxy/incoming/:token', async () => ({ ok: true }));
    app.post('/alerts/:bot/:input', { logSerializers: { req: (req) => ({ method: req.method, url: redactQueryToken(req.url) }) } }, async () => ({ ok: true }));
    await app.inject({ method: 'POST', url: '/proxy/incoming/s3cr3t-incoming', payload: {} });
    await app.inject({ method: 'POST', url: '/alerts/ops/grafana?token=s3cr3t-query', payload: {} });
    // a request that matches no route (a wrong method on an alert URL) has only the root serializer
    await app.inject({ method: 'GET', url: '/alerts/ops/grafana?a=1&token=s3cr3t-stray', payload: {} });
    const text = JSON.stringify(lines);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ res: { statusCode: 404 } });
    expect(text).not.toContain('s3cr3t');
    expect(text).toContain('/incoming/[redacted]');
    expect(text).toContain('token=[redacted]');
  });
});

// issue #15, item 4: INTRABOT_LOG_FORMAT=pretty into a file wrote colour codes
describe('pretty logs', () => {
  it('carry no colour codes when stdout is not a terminal', async () => {
    const script = [
      "import Fastify from 'fastify';",
      "import { loggerOptions } from './src/runtime/logger.ts';",
      "const app = Fastify({ logger: loggerOptions('info') });",
      "app.log.warn('something to see');",
      'await app.close();',
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH, INTRABOT_LOG_FORMAT: 'pretty' },
      timeout: 30_000,
    });
    expect(stdout).toContain('something to see');
    expect(stdout).toMatch(/^\[\d\d:\d\d:\d\d\] WARN/m);
    expect(stdout).not.toContain('\u001b[');
  });
});
