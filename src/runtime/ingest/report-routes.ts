import type { FastifyInstance } from 'fastify';
import { registerReceiver } from '../../webhooks/receiver';
import type { HookRouteDeps } from './hook-routes';
import { InboxIngest } from './inbox-ingest';

/** `POST /reports/:tenant/:bot`: the platform's signed outgoing reports, each checked against its own report's secret. */
export async function reportRoutes(app: FastifyInstance, deps: HookRouteDeps): Promise<void> {
  await registerReceiver(app, { path: '/reports/:tenant/:bot', clock: deps.clock, steps: new InboxIngest(deps, 'reports') });
}
