import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { seedRefs } from '../seed/seed-refs';

/**
 * `GET /_sandbox/refs`: the seed's named ids (`SeedRefs`), so a test outside this process (or any test)
 * reads them over HTTP instead of from the sandbox's database. 404 after the `empty` seed, which names
 * nothing. Loopback only, like every `/_sandbox` route.
 */
export function registerRefsControl(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/_sandbox/refs', async (_request, reply) => {
    const refs = seedRefs(ctx);
    if (refs) return refs;
    return reply.code(404).send({ error: 'not_found', message: 'this sandbox was seeded empty: it has no named ids (POST /_sandbox/reset {"seed":"demo"})' });
  });
}
