import { z } from 'zod';
import { IntrabotError } from '../errors';
import { describeIssues, parseOrThrow } from '../validation';
import { EVENT_NAMES, type EventName, type ReportName } from '../webhooks/events';
import type { PayloadOf } from '../webhooks/payloads';
import type { ReportPayloadOf } from '../webhooks/report';
import { CommandArgSchema, CommandPermissionsSchema, type CommandArg, type CommandPermissions } from './commands/command-spec';
import type { ParsedCommand } from './commands/parse-command';
import type { BotContext } from './context';
import type { Middleware } from './middleware';
import { isAnswer, type AnswerOf, type AnswerSpec } from './conversations/answers';

type Awaitable<T> = T | Promise<T>;

/** One delivery, as a handler sees it: the envelope's fields with the payload typed by the event. */
export interface BotEvent<E extends EventName = EventName> {
  /** The delivery id (envelope `id`): the dedupe key. */
  id: string;
  name: E;
  payload: PayloadOf<E>;
  /** Unix seconds, from the envelope. */
  timestamp: number;
  customer: string;
  /**
   * True when the platform never delivered it: the runtime found it by listing what was created
   * while it was down (or, with `intrabot dev --poll`, by polling). Still handled exactly once.
   */
  recovered: boolean;
}

/** A chat-ops command found in a post or comment. */
export interface CommandInvocation extends ParsedCommand {
  /** Who wrote it. */
  user: { id: number; name: string };
  /** Where it was written; `ctx.reply` answers there. */
  source: { postId: number; wallId: number; commentId?: number };
}

/** A scheduled run: `slot` is the cron slot (ms since the epoch) it runs for, even when caught up late. */
export interface JobRun {
  name: string;
  slot: number;
}

/** One outgoing-report delivery, with the payload typed by the report. */
export interface ReportDelivery<R extends ReportName = ReportName> {
  id: string;
  name: R;
  payload: ReportPayloadOf<R>;
  timestamp: number;
  customer: string;
}

// handlers may return what they awaited last (`async (cmd, ctx) => ctx.reply('ok')`); it is ignored
export type EventHandler<E extends EventName, C> = (event: BotEvent<E>, ctx: BotContext<C>) => Awaitable<unknown>;
export type CommandHandler<C> = (command: CommandInvocation, ctx: BotContext<C>) => Awaitable<unknown>;
export type JobHandler<C> = (ctx: BotContext<C>, run: JobRun) => Awaitable<unknown>;
export type ReportHandler<R extends ReportName, C> = (report: ReportDelivery<R>, ctx: BotContext<C>) => Awaitable<unknown>;

/** A command with help text, arguments and permissions. */
export interface CommandSpec<C> {
  description?: string;
  args?: Array<string | { name: string; description?: string; required?: boolean }>;
  permissions?: CommandPermissions;
  run: CommandHandler<C>;
}

/** A command after `defineBot`: always the long form, arguments normalised. */
export interface DefinedCommand<C> {
  name: string;
  description: string | undefined;
  args: CommandArg[];
  permissions: CommandPermissions | undefined;
  run: CommandHandler<C>;
}

/**
 * A step of a conversation: what reads the answer (`yesNo()`, `choice([...])`, `freeText()`, a zod schema;
 * free text when absent), what runs with it, and what runs when nobody answered in time. `state` is
 * what `ctx.ask` was given. Write it with `defineStep` for the answer's type to follow `answer`.
 */
export interface ConversationStep<C = any, A = any, S = any> {
  answer?: AnswerSpec<A> | undefined;
  /**
   * What the bot says, before the question again, to an answer `answer` refuses (`'Please give the
   * ticket number, such as 4711.'`). Default: the answer's own (`yesNo()`: "Please answer yes or no.";
   * a zod schema: what it takes, such as "Please answer with a whole number from 1 to 5.").
   */
  retry?: string | undefined;
  run: (answer: A, state: S, ctx: BotContext<C>) => Awaitable<unknown>;
  timeout?: ((state: S, ctx: BotContext<C>) => Awaitable<unknown>) | undefined;
}

/**
 * A conversation step with its types followed: the answer's from `answer` (`boolean` for `yesNo()`),
 * the state's from `run`'s parameter.
 *
 * @example
 * const confirm = defineStep({
 *   answer: yesNo(),
 *   run: async (yes, state: { service: string }, ctx) => ctx.reply(yes ? `Deploying ${state.service}.` : 'Cancelled.'),
 *   timeout: async (state, ctx) => ctx.reply(`No answer: ${state.service} is not deployed.`),
 * });
 */
export function defineStep<A extends AnswerSpec<any> | undefined, S = unknown, C = any>(step: {
  answer?: A;
  retry?: string;
  run: (answer: AnswerOf<A>, state: S, ctx: BotContext<C>) => Awaitable<unknown>;
  timeout?: (state: S, ctx: BotContext<C>) => Awaitable<unknown>;
}): ConversationStep<C, AnswerOf<A>, S> {
  return step as ConversationStep<C, AnswerOf<A>, S>;
}

/** The config type a schema gives (`Record<string, unknown>` without one). */
export type ConfigOf<S> = S extends z.ZodType ? z.output<S> : Record<string, unknown>;

export interface BotDefinitionInput<S extends z.ZodType | undefined> {
  /** Validates the manifest's `config` (after tenant overrides); `ctx.config` has its output type. */
  config?: S;
  on?: { [E in EventName]?: EventHandler<E, ConfigOf<S>> };
  commands?: Record<string, CommandHandler<ConfigOf<S>> | CommandSpec<ConfigOf<S>>>;
  /**
   * Cron jobs by the name `schedules` gives them. `'*'` runs every scheduled job that has no handler
   * of its own (`run.name` says which): for bots whose jobs come from configuration.
   *
   * @example
   * jobs: { digest: postDigest, '*': async (ctx, run) => publishConfigured(ctx, run.name) }
   */
  jobs?: Record<string, JobHandler<ConfigOf<S>>>;
  reports?: { [R in ReportName]?: ReportHandler<R, ConfigOf<S>> };
  /**
   * Middleware around every event handler, command, job and report of this bot, first outermost, inside
   * the runtime-wide list (`buildRuntime({ middleware })`). See docs/middleware.md.
   *
   * @example
   * use: [cooldown({ per: '30s' })]
   */
  use?: Middleware<ConfigOf<S>>[];
  /**
   * The steps of this bot's conversations, by the name `ctx.ask({ step })` gives: each takes the answer
   * to a question the bot asked. See docs/conversations.md.
   *
   * @example
   * conversations: { confirm: defineStep({ answer: yesNo(), run: async (yes, state: Deploy, ctx) => ... }) }
   */
  conversations?: Record<string, ConversationStep<ConfigOf<S>>>;
}

export interface BotDefinition<C = Record<string, unknown>> {
  readonly kind: 'intrabot.bot';
  readonly on: { readonly [E in EventName]?: EventHandler<E, C> };
  readonly commands: Readonly<Record<string, DefinedCommand<C>>>;
  readonly jobs: Readonly<Record<string, JobHandler<C>>>;
  readonly reports: { readonly [R in ReportName]?: ReportHandler<R, C> };
  /** The bot's own middleware, first outermost. */
  readonly use: readonly Middleware<C>[];
  /** The conversation steps, by name. */
  readonly conversations: Readonly<Record<string, ConversationStep<C>>>;
  /** Parses the manifest's `config`; throws `InvalidInputError` naming `config.<field>`. */
  parseConfig(raw: unknown): C;
}

/**
 * Any bot, whatever its config type: what the runtime holds in its registry. Handlers take the
 * context as a parameter, so `BotDefinition<{ greeting: string }>` is not a `BotDefinition<unknown>`.
 */
export type AnyBotDefinition = BotDefinition<any>;

/** A module whose `defineBot(...)` input is wrong: names the field (`on.post.deleted`). */
export class BotDefinitionError extends IntrabotError {
  readonly field: string;
  constructor(field: string, message: string, options: { cause?: unknown } = {}) {
    super('invalid_manifest', `defineBot: ${message}`, { ...options, details: { field } });
    this.field = field;
  }
}

const FunctionSchema = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', 'expected a function');
/** The key of a `jobs` handler that runs every scheduled job without a handler of its own. */
export const ANY_JOB = '*';

const HandlerNameSchema = z.string().regex(/^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/, 'use lower-case letters, digits and dashes');

const DefinitionInputSchema = z.strictObject({
  config: z.custom<z.ZodType>((value) => value instanceof z.ZodType, 'expected a zod schema').optional(),
  on: z.partialRecord(z.enum(EVENT_NAMES), FunctionSchema).optional(),
  commands: z
    .record(
      HandlerNameSchema,
      z.union([
        FunctionSchema,
        z.strictObject({
          description: z.string().optional(),
          args: z.array(CommandArgSchema).optional(),
          permissions: CommandPermissionsSchema.optional(),
          run: FunctionSchema,
        }),
      ]),
    )
    .optional(),
  jobs: z.record(HandlerNameSchema.or(z.literal(ANY_JOB)), FunctionSchema).optional(),
  reports: z.record(z.string().regex(/^[a-z_]+\.[a-z_]+$/, 'expected a report name such as todoliststats.daily'), FunctionSchema).optional(),
  use: z.array(FunctionSchema).optional(),
  conversations: z
    .record(
      HandlerNameSchema,
      z.strictObject({
        answer: z
          .custom<AnswerSpec<unknown>>((value) => isAnswer(value) || value instanceof z.ZodType, 'expected yesNo(), choice([...]), freeText() or a zod schema')
          .optional(),
        retry: z.string().trim().min(1, 'retry: say what answer is expected, or leave it out').optional(),
        run: FunctionSchema,
        timeout: FunctionSchema.optional(),
      }),
    )
    .optional(),
});

/**
 * Declares a bot: its config schema, event handlers, chat-ops commands, cron jobs and report
 * handlers. Types flow through: an event's payload follows its name and `ctx.config` follows the
 * config schema. The input is checked at once, so a typo fails at load, naming the field.
 *
 * @example
 * export default defineBot({
 *   config: z.object({ greeting: z.string() }),
 *   on: {
 *     'achievement.awarded': async (event, ctx) => {
 *       if (event.payload.achievement.visibility !== 'public') return;
 *       await ctx.post('team', { template: 'kudos/awarded', data: { ...event.payload, greeting: ctx.config.greeting } });
 *     },
 *   },
 *   commands: {
 *     status: { description: 'Shows service health', args: ['service'], run: async (cmd, ctx) => ctx.reply(`${cmd.args[0]}: ok`) },
 *   },
 *   jobs: { digest: async (ctx) => ctx.post('team', { template: 'digest', data: {} }) },
 * });
 */
export function defineBot<S extends z.ZodType | undefined = undefined>(input: BotDefinitionInput<S>): BotDefinition<ConfigOf<S>> {
  const result = DefinitionInputSchema.safeParse(input);
  if (!result.success) {
    const { field, message } = describeFirstIssue(result.error);
    throw new BotDefinitionError(field, message, { cause: result.error });
  }
  const schema = input.config;
  return Object.freeze({
    kind: 'intrabot.bot' as const,
    on: { ...input.on },
    commands: normalizeCommands(input.commands ?? {}),
    jobs: { ...input.jobs },
    reports: { ...input.reports },
    use: Object.freeze([...(input.use ?? [])]),
    conversations: Object.freeze({ ...input.conversations }),
    parseConfig: (raw: unknown): ConfigOf<S> =>
      (schema ? parseOrThrow(schema, raw ?? {}, 'config') : { ...(raw as Record<string, unknown> | undefined) }) as ConfigOf<S>,
  });
}

/** Like `describeIssues`, but an unknown key is named itself (`on.post.deleted`, not `on`). */
function describeFirstIssue(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  if (issue?.code !== 'unrecognized_keys') return describeIssues(error);
  const field = [...issue.path, issue.keys[0]].map(String).join('.');
  return { field, message: `${field}: unknown key` };
}

function normalizeCommands<C>(commands: Record<string, CommandHandler<C> | CommandSpec<C>>): Record<string, DefinedCommand<C>> {
  const out: Record<string, DefinedCommand<C>> = {};
  for (const [name, command] of Object.entries(commands)) {
    const spec: CommandSpec<C> = typeof command === 'function' ? { run: command } : command;
    out[name] = {
      name,
      description: spec.description,
      args: (spec.args ?? []).map((arg) => CommandArgSchema.parse(arg)),
      permissions: spec.permissions,
      run: spec.run,
    };
  }
  return out;
}

/** Whether a module's default export is a bot made by `defineBot`. */
export function isBotDefinition(value: unknown): value is AnyBotDefinition {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'intrabot.bot';
}
