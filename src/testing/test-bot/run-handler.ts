import type { ReplySource } from '../../bots/create-bot-context';
import type { CommandUser } from '../../bots/commands';
import type { BotContext } from '../../bots/context';
import { ANY_JOB, type AnyBotDefinition } from '../../bots/define-bot';
import type { LoopGuard } from '../../bots/loop-guard';
import type { Chain } from '../../bots/middleware';
import type { BotManifest } from '../../bots/manifest';
import { withTimeLimit } from '../../clock/time-limit';
import type { Clock } from '../../clock';
import { deliverToBot, type DeliveryOutcome } from '../../runtime/ingest/handle-delivery';
import type { Envelope } from '../../webhooks/envelope';
import type { ConversationBook } from '../../bots/conversations/pending';

/** What `testBot` runs a bot with: its definition and manifest, the recording context, the fake clock. */
export interface TestRunDeps {
  tenant: string;
  botName: string;
  manifest: BotManifest;
  definition: AnyBotDefinition;
  /** What the time limits run on (`limitClock`: the fake clock, or real time when the fake one stands still). */
  limits: Clock;
  loopGuard: LoopGuard;
  timeoutMs: number;
  /** A context for one run; `source` is what `ctx.reply` answers. */
  context(source: ReplySource | undefined, signal: AbortSignal): BotContext<unknown>;
  /** The full user for a command's permissions. */
  fetchUser(id: number): Promise<CommandUser>;
  /** The runtime-wide middleware around the bot's own, composed once (as a deployment's `chain`). */
  chain: Chain;
  /** The bot's waiting questions (`ctx.ask`). */
  conversations: ConversationBook;
}

/**
 * `testBot`'s door into the runtime's delivery path: an event, a command or a report for one bot, loop
 * checked, routed and run exactly as the inbox worker has it done (chat-ops parsing, `help`, permissions,
 * loop prevention), under the handler time limit (`limitClock`).
 */
export function deliver(deps: TestRunDeps, event: string, envelope: Envelope): Promise<DeliveryOutcome> {
  const { tenant, botName: bot, manifest, definition, loopGuard } = deps;
  return deliverToBot(
    { tenant, bot, event, envelope, definition, manifest, loopGuard },
    {
      run: (what, fn, source) =>
        withTimeLimit(deps.limits, deps.timeoutMs, `${bot} ${what}`, async (signal) => {
          await fn(deps.context(source, signal));
        }),
      fetchUser: (id) => deps.fetchUser(id),
      chain: deps.chain,
      conversations: deps.conversations,
    },
  );
}

/** A job run as the runtime runs one: its own handler or the `'*'` one, under the time limit. */
export async function runJob(
  input: { definition: AnyBotDefinition; botName: string; clock: Clock; timeoutMs: number; chain: Chain },
  job: string,
  slot: number,
  context: (signal: AbortSignal) => BotContext<unknown>,
): Promise<DeliveryOutcome> {
  const handler = input.definition.jobs[job] ?? input.definition.jobs[ANY_JOB];
  if (!handler) return { status: 'ignored', reason: `bot ${input.botName} has no job "${job}"` };
  await withTimeLimit(input.clock, input.timeoutMs, `${input.botName} job ${job}`, async (signal) => {
    const ctx = context(signal);
    const run = { name: job, slot };
    await input.chain({ kind: 'job', what: `job ${job}`, job: run }, ctx, () => handler(ctx, run));
  });
  return { status: 'handled', what: `job ${job}` };
}
