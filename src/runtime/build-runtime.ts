import Fastify, { type FastifyInstance } from 'fastify';
import type { Clock } from '../clock';
import type { RuntimeConfig } from './config';
import { handleError } from './error-handler';
import { loggerOptions } from './logger';

/** Everything the runtime needs, passed in once (STYLE.md rule 5). */
export interface RuntimeDeps {
  config: RuntimeConfig;
  clock: Clock;
}

export interface Runtime {
  app: FastifyInstance;
  config: RuntimeConfig;
  /** Listens on the configured host and port; resolves to the runtime's base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Builds the runtime's Fastify app: health, readiness and, as the issues land, the webhook receiver,
 * the alert inputs, the proxy and the admin routes.
 */
export function buildRuntime(deps: RuntimeDeps): Runtime {
  const { config } = deps;
  const app = Fastify({ logger: loggerOptions(config.log_level), bodyLimit: 1_048_576 });
  app.setErrorHandler(handleError);

  let ready = false;
  app.get('/healthz', async () => ({ ok: true }));
  app.get('/readyz', async (_request, reply) => (ready ? { ok: true } : reply.code(503).send({ ok: false, reason: 'starting' })));

  return {
    app,
    config,
    async listen() {
      await app.listen({ host: config.host, port: config.port });
      ready = true;
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    },
    async close() {
      ready = false;
      await app.close();
    },
  };
}
