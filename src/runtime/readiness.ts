import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../store/store';

export interface ReadinessInput {
  /** Provisioned and started (false while starting and once stopping). */
  started: () => boolean;
  store: Pick<Store, 'kind' | 'ping'>;
  bots: () => number;
}

/**
 * `GET /readyz`: 200 once the runtime has started and while its store answers; 503 with the reason
 * otherwise (`starting`, or `store_unavailable` during an outage, so a load balancer sends deliveries,
 * alerts and proxy calls to a replica that can keep them). The store is asked on every probe: a cheap,
 * time-bounded read.
 */
export function readinessRoute(input: ReadinessInput): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  return async (_request, reply) => {
    if (!input.started()) return reply.code(503).send({ ok: false, reason: 'starting' });
    try {
      await input.store.ping();
    } catch {
      // what failed is in the logs of the operations that failed; a probe says only that it did
      return reply.code(503).send({ ok: false, reason: 'store_unavailable', message: `the ${input.store.kind} store does not answer` });
    }
    return { ok: true, bots: input.bots() };
  };
}
