import type { Clock } from '../clock';
import { withTimeLimit } from '../clock/time-limit';
import type { Envelope } from '../webhooks/envelope';
import { isEventName, isReportName } from '../webhooks/events';
import { checkPermission, formatHelp, parseCommand, suggest, type CommandUser } from './commands';
import type { BotContext } from './context';
import type { AnyBotDefinition, BotEvent, CommandInvocation, ReportDelivery } from './define-bot';
import type { ReplySource } from './bot-context';
import type { LoopGuard } from './loop-guard';
import type { BotManifest } from './manifest';

export type DispatchOutcome = { status: 'handled'; what: string } | { status: 'ignored'; reason: string };

export interface DispatchDeps {
  tenant: string;
  botName: string;
  manifest: BotManifest;
  definition: AnyBotDefinition;
  clock: Clock;
  loopGuard: LoopGuard;
  /** A context for one run; `source` is what `ctx.reply` answers. */
  context(source: ReplySource | undefined, signal: AbortSignal): BotContext<unknown>;
  /** The full user (groups, managers) for command permissions; the event carries only id and name. */
  fetchUser(id: number): Promise<CommandUser & { name?: string }>;
  timeoutMs: number;
}

/** One inbox entry for one bot: a report, a chat-ops command, or an event handler; loops prevented. */
export async function dispatchDelivery(deps: DispatchDeps, event: string, envelope: Envelope): Promise<DispatchOutcome> {
  const payload = envelope.payload as Record<string, unknown>;
  const base = { id: envelope.id, timestamp: envelope.timestamp, customer: envelope.customer };
  if (isReportName(event)) {
    const handler = deps.definition.reports[event];
    if (!handler) return { status: 'ignored', reason: `no handler for report ${event}` };
    const report = { ...base, name: event, payload } as unknown as ReportDelivery;
    await run(deps, `report ${event}`, undefined, (ctx) => handler(report as never, ctx));
    return { status: 'handled', what: `report ${event}` };
  }
  if (!isEventName(event)) return { status: 'ignored', reason: `unknown event ${event}` };

  const verdict = await deps.loopGuard.check({ tenant: deps.tenant, bot: deps.botName, event, payload, reactToBots: deps.manifest.react_to_bots });
  if (verdict.ignore) return { status: 'ignored', reason: `loop prevention: ${verdict.reason}` };

  const source = replySource(event, payload);
  if (source && Object.keys(deps.definition.commands).length > 0 && typeof payload.body === 'string') {
    const outcome = await dispatchCommand(deps, payload.body, payload, source);
    if (outcome) return outcome;
  }
  const handler = deps.definition.on[event];
  if (!handler) return { status: 'ignored', reason: `no handler for ${event}` };
  const botEvent = { ...base, name: event, payload, recovered: (envelope as { recovered?: unknown }).recovered === true } as unknown as BotEvent;
  await run(deps, `on.${event}`, source, (ctx) => handler(botEvent as never, ctx));
  return { status: 'handled', what: `on.${event}` };
}

async function run(deps: DispatchDeps, what: string, source: ReplySource | undefined, fn: (ctx: BotContext<unknown>) => unknown): Promise<void> {
  await withTimeLimit(deps.clock, deps.timeoutMs, `${deps.botName} ${what}`, async (signal) => {
    await fn(deps.context(source, signal));
  });
}

function replySource(event: string, payload: Record<string, unknown>): ReplySource | undefined {
  const author = payload.author as { id?: number } | null | undefined;
  const wallId = typeof payload.wall_id === 'number' ? payload.wall_id : undefined;
  if (event === 'post.created' && typeof payload.id === 'number') return { postId: payload.id, wallId, authorId: author?.id };
  if ((event === 'comment.created' || event === 'comment.updated') && typeof payload.post_id === 'number') {
    return { postId: payload.post_id, wallId, authorId: author?.id };
  }
  return undefined;
}

/**
 * Chat-ops: `/name args` or `@Bot Name name args`. `help` is automatic; an unknown command is
 * answered with a suggestion when addressed to this bot by name (a slash command may be another bot's,
 * so only a close match is suggested there); permissions are checked against the full user.
 */
async function dispatchCommand(deps: DispatchDeps, body: string, payload: Record<string, unknown>, source: ReplySource): Promise<DispatchOutcome | undefined> {
  const parsed = parseCommand(body, { botName: deps.manifest.display_name });
  if (!parsed) return undefined;
  const commands = deps.definition.commands;
  const mentioned = !body.trimStart().startsWith('/');
  const command = commands[parsed.name];
  const infos = Object.values(commands).map((c) => ({ name: c.name, description: c.description, args: c.args, permissions: c.permissions }));

  if (!command) {
    if (parsed.name === 'help') {
      await run(deps, 'help', source, (ctx) => ctx.reply(formatHelp(infos, { botName: deps.manifest.display_name })));
      return { status: 'handled', what: 'help' };
    }
    const close = suggest(parsed.name, Object.keys(commands));
    if (!mentioned && !close) return { status: 'ignored', reason: `/${parsed.name} is not a command of this bot` };
    const hint = close ? ` Did you mean /${close}?` : '';
    await run(deps, 'unknown command', source, (ctx) => ctx.reply(`Sorry, I don't know /${parsed.name}.${hint} Try /help.`));
    return { status: 'handled', what: 'unknown command' };
  }

  const author = payload.author as { id?: number; name?: string } | undefined;
  if (author?.id === undefined) return { status: 'ignored', reason: 'command without an author' };
  if (command.permissions) {
    const user = await deps.fetchUser(author.id);
    const verdict = checkPermission(command, user);
    if (!verdict.ok) {
      await run(deps, 'permission refused', source, (ctx) => ctx.reply(verdict.reason));
      return { status: 'handled', what: `refused /${command.name}` };
    }
  }
  const commentId = payload.post_id !== undefined && typeof payload.id === 'number' ? payload.id : undefined;
  const invocation: CommandInvocation = {
    ...parsed,
    user: { id: author.id, name: author.name ?? '' },
    source: { postId: source.postId, wallId: source.wallId ?? 0, ...(commentId ? { commentId } : {}) },
  };
  await run(deps, `/${command.name}`, source, (ctx) => command.run(invocation, ctx));
  return { status: 'handled', what: `/${command.name}` };
}
