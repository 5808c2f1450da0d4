import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock';
import { registerReceiver } from '../../webhooks/receiver';
import { InboxIngest, type InboxIngestDeps } from './inbox-ingest';

/** What the signed routes use (events here, reports in `report-routes.ts`): the clock signatures are checked on, and the ingest's parts. */
export interface HookRouteDeps extends InboxIngestDeps {
  clock: Clock;
}

/**
 * `POST /hooks/:tenant/:bot`: the platform's signed events, `verify -> record -> 200`; the inbox worker
 * takes them from there. A `test` delivery (the ping) is acknowledged and not recorded.
 */
export async function hookRoutes(app: FastifyInstance, deps: HookRouteDeps): Promise<void> {
  await registerReceiver(app, { path: '/hooks/:tenant/:bot', clock: deps.clock, steps: new InboxIngest(deps, 'events'), acknowledgeOnly: ['test'] });
}
