import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { buildRuntime, type Runtime, type RuntimeDeps } from './build-runtime';

declare module 'fastify' {
  interface FastifyInstance {
    intrabot: Runtime;
  }
}

/**
 * intrabot inside an existing Fastify app: the runtime's routes (`/hooks`, `/alerts`, the proxy,
 * `/healthz`...) are served from one encapsulated scope of the host app, so the host's own error
 * handler and parsers stay as they are. The bots are provisioned and the workers start once the host
 * listens, and stop when it closes. Set `public_url` in the configuration: the host decides where it
 * listens.
 *
 * @example
 * const app = Fastify();
 * await app.register(intrabotPlugin, { config: loadConfig(), clock: createSystemClock() });
 * await app.listen({ port: 8080 });
 * app.intrabot.inspect().bots // the runtime
 */
export const intrabotPlugin = fp(
  async (app: FastifyInstance, options: Omit<RuntimeDeps, 'app'>): Promise<void> => {
    const runtime = await buildRuntime({ ...options, app });
    app.decorate('intrabot', runtime);
    app.addHook('onListen', async () => {
      await runtime.activate();
    });
    app.addHook('onClose', async () => {
      await runtime.close();
    });
  },
  // not encapsulated (fastify-plugin): `app.intrabot` is visible in the host's own context
  { name: 'intrabot', fastify: '5.x' },
);
