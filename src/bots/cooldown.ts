import { z } from 'zod';
import { InvalidInputError } from '../errors';
import { CLAIM_ONCE } from './claim-once';
import { parseOrThrow } from '../validation';
import { DurationSchema } from './manifest-parts';
import type { BotContext } from './context';
import type { Middleware } from './middleware';

export interface CooldownOptions {
  /** How long a user waits between two uses of the same command: a duration (`'30s'`, `'5m'`) or ms. */
  per: string | number;
  /** Only these commands (names without the slash). Default: every command of the bot. */
  commands?: readonly string[];
  /**
   * What the bot answers the first time a user is held back within a cooldown (later tries in the same
   * cooldown are dropped without a word, so a noisy user does not make the bot noisy too). `{user}`,
   * `{command}` and `{wait}` are filled in; `false` answers nothing. Default:
   * `'{user}, /{command} can be used again in {wait}.'`
   */
  message?: string | false;
}

const OptionsSchema = z.strictObject({
  per: z.union([DurationSchema, z.number().int().positive()]),
  commands: z.array(z.string().min(1)).optional(),
  message: z.union([z.string().min(1), z.literal(false)]).optional(),
});

const DEFAULT_MESSAGE = '{user}, /{command} can be used again in {wait}.';

/** What the bot's store keeps per user and command while a cooldown runs. */
interface Held {
  /** ms on the runtime's clock when the user may use the command again. */
  until: number;
  /** Whether the user has been told (once per cooldown), where no claim decides it (see `mayTell`). */
  told: boolean;
}

/**
 * Per-user cooldown for chat-ops commands: a user who used a command waits `per` before the bot runs it
 * for them again; the first try too early gets one polite answer, the rest are dropped. A claim in the
 * store per tenant decides, so it holds across restarts and replicas (two tries at the same instant on
 * two replicas: one runs); timed on the runtime's clock. Events, jobs,
 * reports, `help` and unknown commands pass through.
 *
 * @example
 * export default defineBot({ use: [cooldown({ per: '30s', commands: ['deploy'] })], commands: { deploy } });
 */
export function cooldown(options: CooldownOptions): Middleware {
  const parsed = parseOrThrow(OptionsSchema, options, 'cooldown');
  const perMs = parsed.per;
  const only = parsed.commands ? new Set(parsed.commands.map((name) => name.replace(/^\//, ''))) : undefined;
  const message = parsed.message ?? DEFAULT_MESSAGE;
  if (only?.size === 0) throw new InvalidInputError('cooldown.commands', 'cooldown.commands: name at least one command, or leave it out for all');

  return async (input, ctx, next) => {
    if (input.kind !== 'command' || (only && !only.has(input.command.name))) return next();
    const { user, name } = input.command;
    const key = `intrabot.cooldown:${name}:${user.id}`;
    const now = ctx.now();
    const held = await ctx.store.get<Held>(key);
    // the claim decides across replicas (two at the same instant: one runs); the store keeps the wait to say
    const claim = CLAIM_ONCE.get(ctx);
    const free = claim ? await claim(key, perMs) : !(held && held.until > now);
    if (!free && held && held.until > now) {
      ctx.log.info(`cooldown: /${name} held back for user ${user.id}`, { command: name, user: user.id, waitMs: held.until - now });
      if (message === false || !(await mayTell(ctx, key, held, now))) return;
      await ctx.reply(fill(message, { user: user.name, command: name, wait: formatWait(held.until - now) }));
      return;
    }
    // taken by another replica an instant ago (its wait not written yet): held back, without an answer
    if (!free) return;
    await ctx.store.set(key, { until: now + perMs, told: false } satisfies Held, { ttlMs: perMs });
    await next();
  };
}

/**
 * Whether this try is the one that tells the user to wait. Several tries of one user in one cooldown, on
 * several replicas at once, all read `told: false` before any of them writes it, so the flag alone let each
 * answer (issue #24: six tries, up to five answers). A claim keyed by the cooldown's window (its end) lets
 * exactly one of them answer; the flag stays for a context without claims.
 */
async function mayTell(ctx: BotContext, key: string, held: Held, now: number): Promise<boolean> {
  const claim = CLAIM_ONCE.get(ctx);
  if (claim) return claim(`${key}:told:${held.until}`, Math.max(1, Math.ceil(held.until - now)));
  if (held.told) return false;
  await ctx.store.set(key, { ...held, told: true }, { ttlMs: held.until - now });
  return true;
}

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(user|command|wait)\}/g, (_, name: string) => values[name] ?? '');
}

/** `25 s`, `4 min`, `2 h`: the wait rounded up to a unit a person reads at a glance. */
export function formatWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.ceil(minutes / 60)} h`;
}
