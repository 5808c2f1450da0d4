import type { BotContext } from '../../bots/context';
import { ANY_JOB, type AnyBotDefinition } from '../../bots/define-bot';
import { dispatchDelivery, type DispatchDeps, type DispatchOutcome } from '../../bots/dispatch';
import { withTimeLimit } from '../../clock/time-limit';
import type { Clock } from '../../clock';
import type { Envelope } from '../../webhooks/envelope';

/**
 * `testBot`'s one door into the runtime's dispatch: an event, a command or a report for one bot, routed
 * and run exactly as the inbox worker has it done (chat-ops parsing, `help`, permissions, loop
 * prevention, the time limit). Only this function knows how the runtime routes a delivery.
 */
export function deliver(deps: DispatchDeps, event: string, envelope: Envelope): Promise<DispatchOutcome> {
  return dispatchDelivery(deps, event, envelope);
}

/** A job run as the runtime runs one (`BotEngine.runJob`): its own handler or the `'*'` one, under the time limit. */
export async function runJob(
  input: { definition: AnyBotDefinition; botName: string; clock: Clock; timeoutMs: number },
  job: string,
  slot: number,
  context: (signal: AbortSignal) => BotContext<unknown>,
): Promise<DispatchOutcome> {
  const handler = input.definition.jobs[job] ?? input.definition.jobs[ANY_JOB];
  if (!handler) return { status: 'ignored', reason: `bot ${input.botName} has no job "${job}"` };
  await withTimeLimit(input.clock, input.timeoutMs, `${input.botName} job ${job}`, async (signal) => {
    await handler(context(signal), { name: job, slot });
  });
  return { status: 'handled', what: `job ${job}` };
}
