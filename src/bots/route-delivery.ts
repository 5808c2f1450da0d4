import type { Envelope } from '../webhooks/envelope';
import { isEventName, isReportName } from '../webhooks/events';
import type { ReplySource } from './create-bot-context';
import { formatHelp, parseCommand, suggest } from './commands';
import type { AnyBotDefinition, BotEvent, CommandInvocation, ConversationStep, DefinedCommand, ReportDelivery } from './define-bot';
import { parseAnswer } from './conversations/answers';
import type { PendingConversation } from './conversations/pending';
import type { BotManifest } from './manifest';

/**
 * What one delivery is for one bot, decided without I/O:
 * - `report`: an outgoing report its handler takes;
 * - `event`: an event handler to run (`source` is what `ctx.reply` answers, when there is one);
 * - `command`: a chat-ops command (its permissions are checked before it runs, against the full user);
 * - `answer`: a comment answering a question the bot asked (`ctx.ask`), for its conversation step;
 * - `help`, `unknown`, `reask`, `not-asked`: an automatic answer (`text`) to a comment or post (a
 *   question asked again after an answer that is not one; "only Ada can answer that");
 * - `ignored`: nothing runs, and `reason` says why.
 */
export type Route =
  | { kind: 'report'; what: string; report: ReportDelivery }
  | { kind: 'event'; what: string; event: BotEvent; source: ReplySource | undefined }
  | { kind: 'command'; what: string; command: DefinedCommand<unknown>; invocation: CommandInvocation; source: ReplySource }
  | { kind: 'help' | 'unknown' | 'reask' | 'not-asked'; what: string; text: string; source: ReplySource }
  | {
      kind: 'answer';
      what: string;
      conversation: PendingConversation;
      step: ConversationStep;
      answer: unknown;
      user: { id: number; name: string };
      source: ReplySource;
    }
  | { kind: 'ignored'; reason: string };

export interface RouteInput {
  /** The event name without the brand prefix (`post.created`), as the receiver named it. */
  event: string;
  envelope: Envelope;
  definition: AnyBotDefinition;
  manifest: BotManifest;
  /** Why loop prevention ignores this delivery (see `loopCheckApplies`); undefined when it does not. */
  looped?: string | undefined;
  /** The questions this bot waits on for the post a comment is on (`ConversationBook.on`), any user's. */
  waiting?: readonly PendingConversation[] | undefined;
}

/** Whether a delivery of this event is checked by loop prevention before it is routed: every event but reports and names the platform does not send. */
export function loopCheckApplies(event: string): boolean {
  return !isReportName(event) && isEventName(event);
}

/**
 * Routes one delivery for one bot: a report to its handler; an event past loop prevention to a command
 * (`/name args` or `@Bot Name name args`, with automatic `help` and "did you mean" for a command
 * addressed to this bot) or to its `on` handler.
 *
 * @example
 * routeDelivery({ event: 'comment.created', envelope, definition, manifest })
 * // => { kind: 'command', what: '/oncall', command, invocation, source: { postId: 7, wallId: 3, authorId: 12 } }
 */
export function routeDelivery(input: RouteInput): Route {
  const { event, envelope, definition } = input;
  const payload = envelope.payload as Record<string, unknown>;
  const base = { id: envelope.id, timestamp: envelope.timestamp, customer: envelope.customer };
  if (isReportName(event)) {
    if (!definition.reports[event]) return { kind: 'ignored', reason: `no handler for report ${event}` };
    return { kind: 'report', what: `report ${event}`, report: { ...base, name: event, payload } as unknown as ReportDelivery };
  }
  if (!isEventName(event)) return { kind: 'ignored', reason: `unknown event ${event}` };
  if (input.looped !== undefined) return { kind: 'ignored', reason: `loop prevention: ${input.looped}` };

  const source = replySource(event, payload);
  if (source && event === 'comment.created' && input.waiting?.length && typeof payload.body === 'string') {
    const answer = routeAnswer(input, payload.body, payload, source, input.waiting);
    if (answer) return answer;
  }
  if (source && Object.keys(definition.commands).length > 0 && typeof payload.body === 'string') {
    const command = routeCommand(input, payload.body, payload, source);
    if (command) return command;
  }
  if (!definition.on[event]) return { kind: 'ignored', reason: `no handler for ${event}` };
  const botEvent = { ...base, name: event, payload, recovered: (envelope as { recovered?: unknown }).recovered === true } as unknown as BotEvent;
  return { kind: 'event', what: `on.${event}`, event: botEvent, source };
}

/** Where `ctx.reply` answers an event: the post, or the post a comment is on. */
export function replySource(event: string, payload: Record<string, unknown>): ReplySource | undefined {
  const author = payload.author as { id?: number; name?: string } | null | undefined;
  const wallId = typeof payload.wall_id === 'number' ? payload.wall_id : undefined;
  const by = { authorId: author?.id, ...(typeof author?.name === 'string' ? { authorName: author.name } : {}) };
  if (event === 'post.created' && typeof payload.id === 'number') return { postId: payload.id, wallId, ...by };
  if ((event === 'comment.created' || event === 'comment.updated') && typeof payload.post_id === 'number') {
    return { postId: payload.post_id, wallId, ...by };
  }
  return undefined;
}

/**
 * A command, `help` or an unknown command; undefined when the text is not a command at all (the event
 * handler takes it then). A slash command may be another bot's: an unknown one is answered only when it
 * is close to one of this bot's, or when the bot was addressed by name.
 */
function routeCommand(input: RouteInput, body: string, payload: Record<string, unknown>, source: ReplySource): Route | undefined {
  const botName = input.manifest.display_name;
  const parsed = parseCommand(body, { botName });
  if (!parsed) return undefined;
  const commands = input.definition.commands as Record<string, DefinedCommand<unknown>>;
  const command = commands[parsed.name];
  if (!command) {
    if (parsed.name === 'help') {
      const infos = Object.values(commands).map((c) => ({ name: c.name, description: c.description, args: c.args, permissions: c.permissions }));
      return { kind: 'help', what: 'help', text: formatHelp(infos, { botName }), source };
    }
    const close = suggest(parsed.name, Object.keys(commands));
    const mentioned = !body.trimStart().startsWith('/');
    if (!mentioned && !close) return { kind: 'ignored', reason: `/${parsed.name} is not a command of this bot` };
    const hint = close ? ` Did you mean /${close}?` : '';
    return { kind: 'unknown', what: 'unknown command', text: `Sorry, I don't know /${parsed.name}.${hint} Try /help.`, source };
  }
  const author = payload.author as { id?: number; name?: string } | undefined;
  if (author?.id === undefined) return { kind: 'ignored', reason: 'command without an author' };
  const commentId = payload.post_id !== undefined && typeof payload.id === 'number' ? payload.id : undefined;
  const invocation: CommandInvocation = {
    ...parsed,
    user: { id: author.id, name: author.name ?? '' },
    source: { postId: source.postId, wallId: source.wallId ?? 0, ...(commentId ? { commentId } : {}) },
  };
  return { kind: 'command', what: `/${command.name}`, command, invocation, source };
}

/**
 * A comment on a post where the bot waits for an answer: the waiting user's comment is the answer (or,
 * when it is not one, the question is asked again); a comment of another user that would answer is
 * refused politely. A command of this bot is a command, not an answer (the question keeps waiting).
 * Undefined when the comment has nothing to do with a waiting question.
 */
function routeAnswer(
  input: RouteInput,
  body: string,
  payload: Record<string, unknown>,
  source: ReplySource,
  waiting: readonly PendingConversation[],
): Route | undefined {
  const parsed = parseCommand(body, { botName: input.manifest.display_name });
  if (parsed && (parsed.name === 'help' || input.definition.commands[parsed.name] !== undefined)) return undefined;
  const author = payload.author as { id?: number; name?: string } | undefined;
  if (author?.id === undefined) return undefined;
  const steps = input.definition.conversations as Record<string, ConversationStep>;
  const mine = waiting.find((c) => c.userId === author.id && steps[c.step] !== undefined);
  if (mine) {
    const step = steps[mine.step]!;
    const result = parseAnswer(step.answer, body);
    if (!result.ok) return { kind: 'reask', what: `conversation ${mine.step}: not an answer`, text: `${step.retry ?? result.hint}\n\n${mine.prompt}`, source };
    const user = { id: author.id, name: author.name ?? '' };
    return { kind: 'answer', what: `conversation ${mine.step}`, conversation: mine, step, answer: result.value, user, source };
  }
  const other = waiting.find((c) => steps[c.step] !== undefined && parseAnswer(steps[c.step]!.answer, body).ok);
  if (!other) return undefined;
  const text = `Sorry, ${other.userName ? `only ${other.userName}` : 'only the person I asked'} can answer that.`;
  return { kind: 'not-asked', what: `conversation ${other.step}: not asked`, text, source };
}
