import type { BotContext } from '../context';
import type { AnyBotDefinition } from '../define-bot';
import type { Chain, HandlerInput } from '../middleware';
import type { ReplySource } from '../create-bot-context';
import type { ConversationBook, PendingConversation } from './pending';

/** How a timeout's code runs: the runtime's handler runner, or `testBot`'s. */
export interface TimeoutRunner {
  /** Runs `fn` with a context whose `ctx.reply` answers `source`, under the handler time limit. */
  run(what: string, fn: (ctx: BotContext<unknown>) => unknown, source: ReplySource): Promise<void>;
}

/** What ending one question by its timeout took. */
export type TimeoutOutcome = 'timed out' | 'gone' | 'busy';

/**
 * A question nobody answered in time: taken (once, across replicas, unless its answer took it first:
 * `gone`; or is running its step: `busy`, for the caller to try again later),
 * its step's `timeout` run with the state through the deployment's chain (the middleware alone for a step
 * without one), then ended. The question ends even when `timeout` throws: the error is the caller's to log.
 */
export async function timeOut(
  book: ConversationBook,
  conversation: PendingConversation,
  definition: AnyBotDefinition,
  chain: Chain,
  runner: TimeoutRunner,
): Promise<TimeoutOutcome> {
  const taken = await book.take(conversation);
  if (taken !== 'taken') return taken;
  if (!(await book.timeoutOnce(conversation))) {
    // another replica ran this timeout and is ending the question (or has): nothing left to do here
    await book.giveBack(conversation);
    return 'gone';
  }
  try {
    const step = definition.conversations[conversation.step];
    const what = `conversation ${conversation.step}: timeout`;
    const input: HandlerInput = {
      kind: 'timeout',
      what,
      step: conversation.step,
      state: conversation.state,
      user: { id: conversation.userId, name: conversation.userName },
      postId: conversation.postId,
    };
    const source: ReplySource = {
      postId: conversation.postId,
      wallId: conversation.wallId,
      authorId: conversation.userId,
      authorName: conversation.userName,
    };
    // through the middleware even without a handler: an audit log records that the question timed out
    await runner.run(what, (ctx) => chain(input, ctx, () => step?.timeout?.(conversation.state, ctx)), source);
  } finally {
    await book.end(conversation);
  }
  return 'timed out';
}
