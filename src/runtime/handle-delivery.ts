import type { LoopGuard } from '../bots/loop-guard';
import { checkPermission } from '../bots/commands';
import { loopCheckApplies, routeDelivery, type Route } from '../bots/route-delivery';
import type { Logger } from '../log';
import type { InboxItem } from '../store/inbox';
import type { Envelope } from '../webhooks/envelope';
import { normaliseDelivery } from '../webhooks/normalise';
import type { Deployment, DeploymentTable } from './deployments';
import type { HandlerRunner } from './handler-runner';

/** What became of one delivery for one bot: what ran, or why nothing did. */
export type DeliveryOutcome = { status: 'handled'; what: string } | { status: 'ignored'; reason: string };

export interface DeliveryHandlerDeps {
  table: DeploymentTable;
  runner: HandlerRunner;
  loopGuard: LoopGuard;
}

/**
 * One inbox item through the bot: `deployment -> loop check -> route -> run`. The item carries the
 * envelope and event name the receiver checked; nothing is parsed again. Throws when the bot's code fails
 * (the inbox retries, then dead-letters).
 */
export async function handleDelivery(deps: DeliveryHandlerDeps, item: InboxItem): Promise<DeliveryOutcome> {
  const deployment = deps.table.get(item.tenant, item.bot);
  if (!deployment) return { status: 'ignored', reason: `bot ${item.bot} is not deployed to ${item.tenant}` };
  const provisioned = deps.table.provisionedBot(item.tenant, item.bot);
  if (provisioned?.enabled === false) return { status: 'ignored', reason: `bot ${item.bot} is switched off: ${provisioned.reason}` };

  // checked by the receiver (or the receive door) before it was stored
  const envelope = item.envelope as unknown as Envelope;
  const event = item.event ?? normaliseDelivery(envelope, deployment.tenant.config.event_prefix).event;
  const entity = (envelope.payload as { id?: unknown }).id;
  const log = deps.runner.logger(deployment, { delivery: item.deliveryId, event, ...(entity !== undefined ? { entity } : {}) });
  const looped = await loopVerdict(deps.loopGuard, deployment, event, envelope);
  const route = routeDelivery({ event, envelope, definition: deployment.bot.definition, manifest: deployment.manifest, looped });
  const outcome = await runRoute(deps.runner, deployment, route, log);
  log.info({}, `delivery ${outcome.status}: ${outcome.status === 'handled' ? outcome.what : outcome.reason}`);
  return outcome;
}

async function loopVerdict(loopGuard: LoopGuard, deployment: Deployment, event: string, envelope: Envelope): Promise<string | undefined> {
  if (!loopCheckApplies(event)) return undefined;
  const verdict = await loopGuard.check({
    tenant: deployment.tenant.config.id,
    bot: deployment.bot.name,
    event,
    payload: envelope.payload as Record<string, unknown>,
    reactToBots: deployment.manifest.react_to_bots,
  });
  return verdict.ignore ? verdict.reason : undefined;
}

/** Runs what the route names with the bot's handler; a command's permissions are checked first, against the full user. */
async function runRoute(runner: HandlerRunner, deployment: Deployment, route: Route, log: Logger): Promise<DeliveryOutcome> {
  const { definition } = deployment.bot;
  switch (route.kind) {
    case 'ignored':
      return { status: 'ignored', reason: route.reason };
    case 'report':
      await runner.run(deployment, route.what, (ctx) => definition.reports[route.report.name]!(route.report as never, ctx), { log });
      break;
    case 'event':
      await runner.run(deployment, route.what, (ctx) => definition.on[route.event.name]!(route.event as never, ctx), { source: route.source, log });
      break;
    case 'help':
    case 'unknown':
      await runner.run(deployment, route.what, (ctx) => ctx.reply(route.text), { source: route.source, log });
      break;
    case 'command': {
      if (route.command.permissions) {
        // the event carries only the author's id and name; groups and managers come from the platform
        const user = await deployment.tenant.api.users.get(route.invocation.user.id);
        const verdict = checkPermission(route.command, user as never);
        if (!verdict.ok) {
          await runner.run(deployment, 'permission refused', (ctx) => ctx.reply(verdict.reason), { source: route.source, log });
          return { status: 'handled', what: `refused ${route.what}` };
        }
      }
      await runner.run(deployment, route.what, (ctx) => route.command.run(route.invocation, ctx), { source: route.source, log });
      break;
    }
  }
  return { status: 'handled', what: route.what };
}
