import { z } from 'zod';
import type { BotContext, TargetRef } from '../context';
import type { JobRun } from '../define-bot';
import { LeapDayRuleSchema, type CelebrationFilter } from './celebrations';
import { resolveGroups, type Directory, type DirectoryUser } from './directory-copy';
import { confirmUsers, syncDirectory } from './directory-sync';

/**
 * The config every celebration bot shares (birthday, anniversary): where to greet, how, whom.
 * A bot extends it with its own fields.
 */
export const CelebrationConfigSchema = z.object({
  /** A target name from the manifest's `targets`, or `{ wall: id | name }`. */
  target: z.union([z.string().min(1), z.strictObject({ wall: z.union([z.int().positive(), z.string().min(1)]) })]).default('company'),
  /** One post for everyone (`post`), a direct message each (`dm`), or both. */
  mode: z.enum(['post', 'dm', 'both'], { error: 'mode must be post, dm or both' }).default('post'),
  leap_day: LeapDayRuleSchema.default('feb28'),
  /** Only members of these groups (ids or names); everyone when empty. */
  groups: z.array(z.union([z.int().positive(), z.string().min(1)])).default([]),
  skip_away: z.boolean().default(false),
  /** Days between full directory re-syncs. */
  full_resync_days: z.number().positive().default(7),
  templates: z.object({ post: z.string().min(1), dm: z.string().min(1) }),
});
export type CelebrationConfig = z.infer<typeof CelebrationConfigSchema>;

/** The day being celebrated, and the groups the directory names (for departments). */
export interface CelebrationDay {
  date: string;
  groups: Directory['groups'];
}

/** One person to greet; `years` for anniversaries. */
export interface Celebrant {
  user: DirectoryUser;
  years?: number;
}

export interface CelebrationSpec<C extends CelebrationConfig> {
  /** Names the store marker and the log lines (`birthday`). */
  kind: string;
  /** Who celebrates on `date` among `users` under `filter`. */
  select(users: readonly DirectoryUser[], date: string, filter: CelebrationFilter, config: C): Celebrant[];
  /** Runs after the celebrants are confirmed and before they are greeted (awards). */
  beforeGreeting?(ctx: BotContext<C>, celebrants: Celebrant[], day: CelebrationDay): Promise<void>;
}

const DAY_MS = 86_400_000;
/** Long enough for any catch-up window; short enough that markers do not pile up. */
const MARKER_TTL_MS = 8 * DAY_MS;
/** Longer than a job may run (the manifests' `timeout: 10m`), so a crashed run's claim lapses. */
const RUNNING_TTL_MS = 15 * 60_000;

/** The store key saying that `kind` greetings for `date` were sent. */
export function greetedKey(kind: string, date: string): string {
  return `greeted:${kind}:${date}`;
}

/**
 * One celebration run for the day of `run.slot` in the tenant's zone: sync the directory, pick the
 * celebrants, confirm each with the platform (a colleague who left is never greeted; being away is
 * read fresh), greet them, and mark the day so a rerun posts nothing new.
 *
 * @example
 * jobs: { greet: (ctx, run) => runCelebration(ctx, run, { kind: 'birthday', select: (users, date, filter) => birthdaysOn(users, date, filter).map((user) => ({ user })) }) }
 */
export async function runCelebration<C extends CelebrationConfig>(ctx: BotContext<C>, run: JobRun, spec: CelebrationSpec<C>): Promise<Celebrant[]> {
  // the slot's day, not today: a run caught up after midnight greets the people of the day it was for
  const date = ctx.dateOf(run.slot);
  const marker = greetedKey(spec.kind, date);
  const seen = await ctx.store.get<{ state?: string }>(marker);
  if (seen) {
    ctx.log.info(seen.state === 'running' ? `another run is greeting for ${date}; leaving it to finish` : `already greeted for ${date}; nothing new to send`, {
      date,
    });
    return [];
  }
  // claimed before the slow part (sync, checks), so `intrabot run` during the cron run does not greet twice
  await ctx.store.set(marker, { state: 'running', at: run.slot }, { ttlMs: RUNNING_TTL_MS });
  let celebrants: Celebrant[];
  try {
    celebrants = await celebrate(ctx, run, spec, date);
  } catch (error) {
    await ctx.store.delete(marker); // nothing was sent, or the outbox holds what was: a rerun may try again
    throw error;
  }
  await ctx.store.set(marker, { state: 'done', at: run.slot, users: celebrants.map((c) => c.user.id) }, { ttlMs: MARKER_TTL_MS });
  ctx.log.info(`${spec.kind} greetings for ${date}`, { date, users: celebrants.map((c) => c.user.id) });
  return celebrants;
}

async function celebrate<C extends CelebrationConfig>(ctx: BotContext<C>, run: JobRun, spec: CelebrationSpec<C>, date: string): Promise<Celebrant[]> {
  const { celebrants, groups } = await findCelebrants(ctx, run, spec, date);
  if (celebrants.length > 0) {
    await spec.beforeGreeting?.(ctx, celebrants, { date, groups });
    await greet(ctx, celebrants, date);
  }
  return celebrants;
}

async function findCelebrants<C extends CelebrationConfig>(
  ctx: BotContext<C>,
  run: JobRun,
  spec: CelebrationSpec<C>,
  date: string,
): Promise<{ celebrants: Celebrant[]; groups: Directory['groups'] }> {
  const deps = { api: ctx.api, store: ctx.store, now: run.slot, signal: ctx.signal, log: ctx.log, progress: (text: string) => ctx.progress(text) };
  const { directory } = await syncDirectory(deps, { fullResyncEveryMs: ctx.config.full_resync_days * DAY_MS });
  const { ids, unknown } = resolveGroups(ctx.config.groups, directory.groups);
  if (unknown.length > 0) ctx.log.warn('groups filter names unknown groups; they match nobody', { unknown });
  const filter: CelebrationFilter = { leapDay: ctx.config.leap_day, ...(ctx.config.groups.length > 0 ? { groups: ids.length ? ids : [0] } : {}) };
  // the copy's `is_away` may be days old: filter on it only after the fresh read below
  const candidates = spec.select(directory.users, date, filter, ctx.config);
  if (candidates.length === 0) return { celebrants: [], groups: directory.groups };
  const { present } = await confirmUsers(
    deps,
    candidates.map((c) => c.user.id),
  );
  return { celebrants: spec.select(present, date, { ...filter, skipAway: ctx.config.skip_away }, ctx.config), groups: directory.groups };
}

async function greet<C extends CelebrationConfig>(ctx: BotContext<C>, celebrants: Celebrant[], date: string): Promise<void> {
  const people = celebrants.map(({ user, years }) => ({
    id: user.id,
    name: user.name,
    first_name: user.first_name,
    ...(years === undefined ? {} : { years }),
  }));
  const { mode, templates } = ctx.config;
  if (mode === 'post' || mode === 'both') {
    await ctx.post(ctx.config.target as TargetRef, { template: templates.post, data: { date, celebrants: people, count: people.length } });
  }
  if (mode === 'dm' || mode === 'both') {
    for (const person of people) await ctx.dm(person.id, { template: templates.dm, data: { date, user: person } });
  }
}
