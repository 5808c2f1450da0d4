import type { LoopGuard } from '../../bots/loop-guard';
import type { ReplySource } from '../../bots/create-bot-context';
import { checkPermission, type CommandUser } from '../../bots/commands';
import type { BotContext } from '../../bots/context';
import type { AnyBotDefinition } from '../../bots/define-bot';
import type { Chain, HandlerInput } from '../../bots/middleware';
import type { BotManifest } from '../../bots/manifest';
import { loopCheckApplies, routeDelivery, type Route } from '../../bots/route-delivery';
import { IntrabotError } from '../../errors';
import type { ConversationBook } from '../../bots/conversations/pending';
import type { Envelope } from '../../webhooks/envelope';
import { checkPayload } from '../../webhooks/payload-check';
import { destinationOf, type SendListener } from '../../bots/run-sends';
import type { OutboxEntryInput } from '../../outbox/entry';
import { clipText, entryText } from '../../outbox/entry-text';
import type { SentMessage } from './delivery-log';

/** How much of each message's text the delivery history keeps. */
const SENT_TEXT_MAX = 2_000;

/** What became of one delivery for one bot: what ran, or why nothing did. */
export type DeliveryOutcome = { status: 'handled'; what: string; sends?: SentMessage[] } | { status: 'ignored'; reason: string };

/** How a routed delivery's code runs: the runtime's handler runner, or `testBot`'s recording one. */
export interface RouteExecutor {
  /** Runs `fn` with a context whose `ctx.reply` answers `source`, under the handler time limit. */
  run(what: string, fn: (ctx: BotContext<unknown>) => unknown, source: ReplySource | undefined): Promise<void>;
  /** The full user (groups, managers) for a command's permissions; the event carries only id and name. */
  fetchUser(id: number): Promise<CommandUser>;
  /** The deployment's middleware, composed once: the runtime's, then the bot's own (`defineBot({ use })`). */
  chain: Chain;
  /** The bot's waiting questions (`ctx.ask`): read for a comment, taken by its answer. */
  conversations?: ConversationBook | undefined;
}

/** One delivery for one bot, past its deployment: what `deliverToBot` needs. */
export interface BotDelivery {
  tenant: string;
  bot: string;
  /** The event name without the brand prefix, as the receiver named it. */
  event: string;
  envelope: Envelope;
  definition: AnyBotDefinition;
  manifest: BotManifest;
  loopGuard: LoopGuard;
}

/** What a delivery's run queued, as the delivery history keeps it: kind, destination, text (clipped). */
export class SentMessages implements SendListener {
  readonly list: SentMessage[] = [];

  sent(entry: OutboxEntryInput): void {
    this.list.push({ kind: entry.kind, to: destinationOf(entry), text: clipText(entryText(entry), SENT_TEXT_MAX) });
  }
}

/** `check payload -> loop check -> route -> run` for one bot: the path the runtime and `testBot` share. */
export async function deliverToBot(delivery: BotDelivery, executor: RouteExecutor): Promise<DeliveryOutcome> {
  // first: a handler typed with the checked payload must never see one without the promised fields
  checkPayload(delivery.event, delivery.envelope.payload);
  const looped = await loopVerdict(delivery);
  const waiting = looped === undefined ? await waitingOn(delivery, executor.conversations) : undefined;
  const { event, envelope, definition, manifest } = delivery;
  const route = routeDelivery({ event, envelope, definition, manifest, looped, waiting });
  return runRoute(executor, delivery.definition, route);
}

/** The questions waiting on the post a comment is on, for a bot that has conversations. */
async function waitingOn(delivery: BotDelivery, book: ConversationBook | undefined) {
  if (!book || delivery.event !== 'comment.created' || Object.keys(delivery.definition.conversations).length === 0) return undefined;
  const postId = (delivery.envelope.payload as { post_id?: unknown }).post_id;
  return typeof postId === 'number' ? book.on(postId) : undefined;
}

async function loopVerdict(delivery: BotDelivery): Promise<string | undefined> {
  if (!loopCheckApplies(delivery.event)) return undefined;
  const verdict = await delivery.loopGuard.check({
    tenant: delivery.tenant,
    bot: delivery.bot,
    event: delivery.event,
    payload: delivery.envelope.payload as Record<string, unknown>,
    reactToBots: delivery.manifest.react_to_bots,
  });
  return verdict.ignore ? verdict.reason : undefined;
}

/**
 * Runs what the route names with the bot's handler, through the middleware (the runtime's, then the bot's);
 * a command's permissions are checked first, against the full user, and a refusal's answer goes through
 * the middleware as the command would.
 */
async function runRoute(executor: RouteExecutor, definition: AnyBotDefinition, route: Route): Promise<DeliveryOutcome> {
  const run: RunThroughChain = (what, input, fn, source) => executor.run(what, (ctx) => executor.chain(input, ctx, () => fn(ctx)), source);
  switch (route.kind) {
    case 'ignored':
      return { status: 'ignored', reason: route.reason };
    case 'report':
      await run(
        route.what,
        { kind: 'report', what: route.what, report: route.report },
        (ctx) => definition.reports[route.report.name]!(route.report as never, ctx),
        undefined,
      );
      break;
    case 'event':
      await run(
        route.what,
        { kind: 'event', what: route.what, event: route.event },
        (ctx) => definition.on[route.event.name]!(route.event as never, ctx),
        route.source,
      );
      break;
    case 'answer':
      return runAnswer(executor, route, run);
    case 'help':
    case 'unknown':
    case 'reask':
    case 'not-asked':
      await run(route.what, { kind: route.kind, what: route.what, text: route.text }, (ctx) => ctx.reply(route.text), route.source);
      break;
    case 'command': {
      const input: HandlerInput = { kind: 'command', what: route.what, command: route.invocation };
      if (route.command.permissions) {
        const verdict = checkPermission(route.command, await executor.fetchUser(route.invocation.user.id));
        if (!verdict.ok) {
          await run('permission refused', input, (ctx) => ctx.reply(verdict.reason), route.source);
          return { status: 'handled', what: `refused ${route.what}` };
        }
      }
      await run(route.what, input, (ctx) => route.command.run(route.invocation, ctx), route.source);
      break;
    }
  }
  return { status: 'handled', what: route.what };
}

type RunThroughChain = (what: string, input: HandlerInput, fn: (ctx: BotContext<unknown>) => unknown, source: ReplySource | undefined) => Promise<void>;

/**
 * An answer to a waiting question: taken (once, across replicas, unless its timeout or another answer
 * took it first: then ignored; while they run, the delivery fails and is retried), its step run with
 * the answer and the question's state, then the question ended. A step that throws gives the question
 * back, so the retried delivery can answer it again.
 */
async function runAnswer(executor: RouteExecutor, route: Extract<Route, { kind: 'answer' }>, run: RunThroughChain): Promise<DeliveryOutcome> {
  const book = executor.conversations;
  const { conversation } = route;
  const taken = book ? await book.take(conversation) : 'gone';
  if (!book || taken === 'gone') return { status: 'ignored', reason: `conversation ${conversation.step}: answered already, or timed out` };
  // another answer or the timeout is running its step: the inbox tries this delivery again later
  if (taken === 'busy') throw new IntrabotError('conflict', `conversation ${conversation.step}: another answer or its timeout is being handled; retried later`);
  const input: HandlerInput = {
    kind: 'answer',
    what: route.what,
    step: conversation.step,
    answer: route.answer,
    state: conversation.state,
    user: route.user,
    postId: conversation.postId,
  };
  try {
    await run(route.what, input, (ctx) => route.step.run(route.answer, conversation.state, ctx), route.source);
  } catch (err) {
    await book.giveBack(conversation);
    throw err;
  }
  await book.end(conversation);
  return { status: 'handled', what: route.what };
}
