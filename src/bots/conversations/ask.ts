import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { InvalidInputError } from '../../errors';
import { parseOrThrow } from '../../validation';
import type { SendReceipt } from '../context';
import { DurationSchema } from '../manifest-parts';
import type { ConversationBook, PendingConversation } from './pending';

/** A question, as `ctx.ask` takes it. */
export interface AskRequest<State = unknown> {
  /** The question: text, or a template of the bot's with its data (rendered once, said again after an answer that is not one). */
  prompt: string | { template: string; data?: Record<string, unknown> };
  /** The step of the bot's `conversations` that takes the answer. */
  step: string;
  /** What the step needs to go on (JSON: kept in the store while the question waits). */
  state?: State;
  /** How long the question waits: `'90s'`, `'10m'`, `'1h'`, `'2d'` or ms. Default `'10m'`. */
  timeout?: string | number;
  /** Who may answer (a user id). Default: who wrote the command or the post or comment being answered. */
  from?: number;
}

/** What `ctx.ask` resolves to: the question's id, and the receipt of the prompt's send. */
export interface AskReceipt extends SendReceipt {
  conversation: string;
}

const AskRequestSchema = z.strictObject({
  prompt: z.union([z.string().min(1), z.strictObject({ template: z.string().min(1), data: z.record(z.string(), z.unknown()).optional() })]),
  step: z.string().min(1),
  state: z.unknown().optional(),
  timeout: z.union([DurationSchema, z.number().int().positive()]).default(600_000),
  from: z.number().int().positive().optional(),
});

/** What one run's `ctx.ask` needs: where questions are kept, the bot's steps, where it asks, and how it speaks. */
export interface AskDeps {
  book: ConversationBook;
  clock: { now(): number };
  tenant: string;
  bot: string;
  /** The names of the bot's conversation steps. */
  steps: readonly string[];
  /** Where the run answers: the post (and its author) the question is asked on. */
  source: { postId: number; wallId?: number | undefined; authorId?: number | undefined; authorName?: string | undefined } | undefined;
  render(prompt: AskRequest['prompt']): Promise<string>;
  reply(text: string): Promise<SendReceipt>;
  /** Told of each question opened (the runtime arms its timeout). */
  opened?: ((conversation: PendingConversation) => void) | undefined;
}

/**
 * Asks where the run answers (`ctx.reply`) and records the question: its answer is the next comment of
 * `from` on that post; the step named runs with it, or the step's `timeout` once the time is up.
 */
export async function ask(deps: AskDeps, request: AskRequest): Promise<AskReceipt> {
  const parsed = parseOrThrow(AskRequestSchema, request, 'ask');
  if (!deps.steps.includes(parsed.step)) {
    const known = deps.steps.length ? `its steps are ${deps.steps.join(', ')}` : 'it has no conversations';
    throw new InvalidInputError('ask.step', `ask.step: bot ${deps.bot} has no conversation step "${parsed.step}" (${known}: defineBot({ conversations }))`);
  }
  const source = deps.source;
  if (!source) throw new InvalidInputError('ask', 'ctx.ask asks where an event or a command happened; a job or a report has no one to ask there');
  const userId = parsed.from ?? source.authorId;
  if (userId === undefined) throw new InvalidInputError('ask.from', 'ask.from: the event being answered has no author: say who answers');
  const state = jsonState(parsed.state);
  const now = deps.clock.now();
  const prompt = await deps.render(parsed.prompt);
  const conversation: PendingConversation = {
    id: randomUUID(),
    tenant: deps.tenant,
    bot: deps.bot,
    step: parsed.step,
    state,
    postId: source.postId,
    ...(source.wallId !== undefined ? { wallId: source.wallId } : {}),
    userId,
    ...(userId === source.authorId && source.authorName ? { userName: source.authorName } : {}),
    prompt,
    askedAt: now,
    deadline: now + parsed.timeout,
  };
  // recorded before the prompt is queued: an answer can never come before its question is known
  await deps.book.open(conversation);
  deps.opened?.(conversation);
  const receipt = await deps.reply(prompt);
  return { ...receipt, conversation: conversation.id };
}

/** The state as the store keeps it: JSON, or an error naming what is not. */
function jsonState(state: unknown): unknown {
  if (state === undefined) return null;
  let text: string;
  try {
    text = JSON.stringify(state);
  } catch (err) {
    throw new InvalidInputError('ask.state', `ask.state: must be JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const back: unknown = JSON.parse(text);
  if (JSON.stringify(back) !== text) throw new InvalidInputError('ask.state', 'ask.state: must be JSON');
  return back;
}
