import { alertEntryId } from '../../alerts/alert-entry-id';
import type { AlertDeployment, AlertSendMessage } from '../../alerts/alert-deployments';
import type { ResolvedAlertInput } from '../../alerts/alert-input';
import { namedWallOf } from '../../bots/provision/wall-names';
import type { BotManifest } from '../../bots/manifest';
import { entryForTarget, type TargetEntry, type TargetEntryDeps } from '../../bots/target-entry';
import { IntrabotError } from '../../errors';
import type { OutboxEntryInput } from '../../outbox/entry';
import type { EnqueueOptions } from '../../outbox/outbox';
import type { BotContext } from '../../bots/context';
import type { EntrySink } from '../../bots/create-bot-context';
import type { Chain, HandlerInput } from '../../bots/middleware';
import { RunOutbox } from '../../bots/run-sends';
import type { HandlerRunner } from '../ingest/handler-runner';
import type { TemplateEngine } from '../../templates/template-engine';
import { wallRefOf, type Deployment, type DeploymentTable } from '../deployments';

/** What an alert input's sends use: the handler runner, the outbox, and the bot user provisioning recorded. */
export interface DeployedAlertInputDeps {
  outbox: EntrySink;
  runner: Pick<HandlerRunner, 'run'>;
  /** The bot's user, as provisioning last recorded it (it may finish after the runtime started). */
  table: Pick<DeploymentTable, 'provisionedBot'>;
}

/**
 * One alert input of one deployment, for one request (`DeployedBot.alertInput`): its input, templates and
 * targets come from the deployment, and what they render is queued through the deployment's chain into
 * the outbox, the target resolved as for any send (`entryForTarget`), under an id derived from the
 * message's dedupe key: a tool retrying a notification never queues the same part twice. A firing
 * message's post entry carries the refs of its alerts; the sender hands the created post to the alert
 * state, so the alerts' resolutions answer it as a comment.
 */
export class DeployedAlertInput implements AlertDeployment {
  readonly tenant: string;

  constructor(
    private readonly deployment: Deployment,
    readonly input: ResolvedAlertInput,
    private readonly deps: DeployedAlertInputDeps,
  ) {
    this.tenant = deployment.tenant.config.id;
  }

  get templates(): TemplateEngine {
    return this.deployment.templates;
  }

  /** Answered from the listing provisioning stored: a wall the tenant lacks is refused at once, with no request. */
  async targetProblem(target: string): Promise<string | undefined> {
    const spec = this.deployment.manifest.targets[target];
    const wall = spec && namedWallOf(spec);
    if (wall === undefined) return undefined;
    const found = await this.deployment.tenant.walls.lookup(wall);
    return found.kind === 'missing' ? `no wall named "${wall}" on tenant ${this.tenant}` : undefined;
  }

  /** One message part into the outbox, as the bot's user (`alertEntryOf`), through the deployment's chain. */
  async send(message: AlertSendMessage): Promise<{ id: string } | undefined> {
    const { deployment } = this;
    const made = await alertEntryOf(message, {
      manifest: deployment.manifest,
      botUserId: this.deps.table.provisionedBot(this.tenant, deployment.bot.name)?.botUserId,
      wallOf: (name, field) => wallRefOf(deployment, name, field),
    });
    let receipt: { id: string } | undefined;
    await this.deps.runner.run(
      deployment,
      alertInputOf(message).what,
      async (ctx) => {
        receipt = await sendAlertThroughChain(deployment.chain, ctx, this.deps.outbox, message, made);
      },
      { trace: message.trace },
    );
    return receipt;
  }
}

/** What the middleware sees of an alert message part (`HandlerInput` of kind `alert`). */
export function alertInputOf(message: AlertSendMessage): Extract<HandlerInput, { kind: 'alert' }> {
  return {
    kind: 'alert',
    what: `alert input ${message.input}`,
    alert: { input: message.input, target: message.target, text: message.text, ...(message.replyTo ? { replyTo: message.replyTo.postId } : {}) },
  };
}

/**
 * An alert message part through a deployment's chain, as any other trigger's sends: the middleware runs
 * around it (an `auditLog` records it, `quietHours` holds it), and the entry is queued through the run's
 * sink (`RunOutbox`: held when a middleware says so, listed among the run's sends). Undefined when a
 * middleware did not call `next`. The runtime and `testBot`'s alert door both send this way.
 */
export async function sendAlertThroughChain(
  chain: Chain,
  ctx: BotContext<unknown>,
  sink: EntrySink,
  message: AlertSendMessage,
  made: { entry: OutboxEntryInput; options: EnqueueOptions },
): Promise<{ id: string } | undefined> {
  let receipt: { id: string } | undefined;
  await chain(alertInputOf(message), ctx, async () => {
    receipt = await new RunOutbox(sink, { locals: ctx.locals }).enqueue(made.entry, made.options);
  });
  return receipt;
}

/** What an alert message part is sent as: who sends it and how a wall named in a target is found. */
export interface AlertEntryDeps {
  manifest: BotManifest;
  botUserId: number | undefined;
  wallOf: TargetEntryDeps['wallOf'];
}

/**
 * The outbox entry of one alert message part, as the bot's user: a comment under the post that reported
 * the alerts firing, else a send to the target, under an id derived from the message's dedupe key (a
 * tool's retry never queues a part twice). `testBot`'s alert door queues the same entries.
 */
export async function alertEntryOf(message: AlertSendMessage, deps: AlertEntryDeps): Promise<{ entry: OutboxEntryInput; options: EnqueueOptions }> {
  const id = alertEntryId(message.tenant, message.bot, message.dedupeKey);
  const target = deps.manifest.targets[message.target];
  if (message.edit) {
    const edit = { kind: 'post-edit' as const, tenant: message.tenant, edit: { ...message.edit, body: message.text }, bot: message.bot };
    return { entry: edit, options: { id, bot: message.bot, trace: message.trace } };
  }
  const made: TargetEntry =
    message.replyTo && target && 'wall' in target
      ? { entry: { kind: 'comment', tenant: message.tenant, postId: message.replyTo.postId, body: message.text }, options: {} }
      : await entryForTarget(
          { tenant: message.tenant, bot: { name: message.bot, manifest: deps.manifest, userId: deps.botUserId }, wallOf: deps.wallOf },
          message.target,
          async () => ({ text: message.text }),
        );
  const alert = message.refs?.length ? { alert: { refs: message.refs, ...(message.group ? { group: message.group } : {}) } } : undefined;
  const entry = made.entry.kind === 'post' && alert ? { ...made.entry, ...alert } : made.entry;
  // named with its bot: held in the outbox while the bot is paused (the alert is accepted all the same)
  return { entry, options: { ...made.options, id, bot: message.bot, trace: message.trace } };
}
