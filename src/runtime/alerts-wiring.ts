import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { registerAlertInputs, type AlertSendMessage } from '../alerts';
import type { AlertInputState } from '../alerts/alert-input-state';
import { namedWallOf } from '../bots/provision/wall-names';
import { entryForTarget, type TargetEntry } from '../bots/target-entry';
import type { Clock } from '../clock';
import { IntrabotError } from '../errors';
import type { Outbox } from '../outbox/outbox';
import type { Deployment, DeploymentTable } from './deployments';
import { wallRefOf } from './handler-runner';

export interface AlertsWiringDeps {
  app: FastifyInstance;
  table: DeploymentTable;
  outbox: Outbox;
  /** The inputs' memory, shared with the outbox sender (which records the posts of firing messages in it). */
  state: AlertInputState;
  clock: Clock;
  defaultTenant: string;
}

/**
 * Opens the alert inputs of every bot (`POST /alerts/:bot/:input`, `/t/:tenant/alerts/...`), each read
 * from the request's tenant's deployment. What they render is queued straight into the outbox, the
 * target resolved as for any send (`entryForTarget`), under an id derived from the message's dedupe key:
 * a tool retrying a notification never queues the same part twice. A firing message's post entry carries
 * the refs of its alerts; the sender hands the created post to `state.recordPost` (`noteCreated` in delivery.ts), so the alerts'
 * resolutions answer it (as a comment).
 */
export async function wireAlertInputs(deps: AlertsWiringDeps): Promise<void> {
  const { table } = deps;
  await registerAlertInputs(deps.app, {
    inputs: (bot, input, tenant) => table.get(tenant, bot)?.alertInputs.get(input),
    clock: deps.clock,
    state: deps.state,
    templates: (bot, tenant) => deploymentOf(table, tenant, bot).templates,
    send: (message) => sendAlert(deps, message),
    // answered from the listing provisioning stored: a wall the tenant lacks is refused at once, with no request
    targetProblem: async (tenant, bot, target) => {
      const deployment = deploymentOf(table, tenant, bot);
      const spec = deployment.manifest.targets[target];
      const wall = spec && namedWallOf(spec);
      if (wall === undefined) return undefined;
      const found = await deployment.tenant.walls.lookup(wall);
      return found.kind === 'missing' ? `no wall named "${wall}" on tenant ${tenant}` : undefined;
    },
    logger: deps.app.log,
    defaultTenant: deps.defaultTenant,
  });
}

/** One message part into the outbox, as the bot's user: a comment under the post that reported the alerts firing, else a send to the target. */
async function sendAlert(deps: AlertsWiringDeps, message: AlertSendMessage): Promise<{ id: string }> {
  const deployment = deploymentOf(deps.table, message.tenant, message.bot);
  const id = `alert-${createHash('sha256').update(`${message.tenant}\n${message.bot}\n${message.dedupeKey}`).digest('hex').slice(0, 32)}`;
  const target = deployment.manifest.targets[message.target];
  const made: TargetEntry =
    message.replyTo && target && 'wall' in target
      ? { entry: { kind: 'comment', tenant: message.tenant, postId: message.replyTo.postId, body: message.text }, options: {} }
      : await entryForTarget(
          {
            tenant: message.tenant,
            bot: { name: message.bot, manifest: deployment.manifest, userId: deps.table.provisionedBot(message.tenant, message.bot)?.botUserId },
            wallOf: (name, field) => wallRefOf(deployment, name, field),
          },
          message.target,
          async () => ({ text: message.text }),
        );
  const entry = made.entry.kind === 'post' && message.refs?.length ? { ...made.entry, alert: { refs: message.refs } } : made.entry;
  return deps.outbox.enqueue(entry, { ...made.options, id });
}

function deploymentOf(table: DeploymentTable, tenant: string, bot: string): Deployment {
  const deployment = table.get(tenant, bot);
  if (!deployment) throw new IntrabotError('unknown_bot', `bot ${bot} is not deployed to tenant ${tenant}`);
  return deployment;
}
