import { didYouMean } from '../did-you-mean';
import { InvalidInputError } from '../errors';
import type { EventName } from '../webhooks/events';
import { ANY_JOB, type AnyBotDefinition } from './define-bot';
import { manifestForTenant, type BotManifest } from './manifest';

export interface BotProblem {
  /** Where in `bot.yaml` (or `defineBot`, for `on.*`) the problem is. */
  field: string;
  message: string;
  /** An error stops the bot from loading; a warning is logged and the bot runs. */
  severity: 'error' | 'warning';
}

/** Commands are read from posts and comments, so a bot with commands needs one of these events. */
const COMMAND_EVENTS: readonly EventName[] = ['post.created', 'comment.created'];

/**
 * What does not fit between a bot's `bot.yaml` and its `defineBot(...)`: scheduled jobs with no
 * function, config the bot's schema refuses (for every tenant override too), subscriptions nobody
 * handles and handlers nothing delivers to.
 */
export function checkBotAgainstManifest(manifest: BotManifest, bot: AnyBotDefinition): BotProblem[] {
  return [...checkJobs(manifest, bot), ...checkConfig(manifest, bot), ...checkEvents(manifest, bot), ...checkReports(manifest, bot)];
}

function checkJobs(manifest: BotManifest, bot: AnyBotDefinition): BotProblem[] {
  if (ANY_JOB in bot.jobs) return [];
  const lists: Array<[string, BotManifest['schedules']]> = [['schedules', manifest.schedules]];
  for (const [tenant, override] of Object.entries(manifest.overrides))
    if (override.schedules) lists.push([`overrides.${tenant}.schedules`, override.schedules]);
  return lists.flatMap(([field, schedules]) =>
    schedules.flatMap((schedule, i) =>
      schedule.job in bot.jobs
        ? []
        : [error(`${field}.${i}.job`, `job "${schedule.job}" is not defined in the bot's jobs${didYouMean(schedule.job, Object.keys(bot.jobs))}`)],
    ),
  );
}

function checkConfig(manifest: BotManifest, bot: AnyBotDefinition): BotProblem[] {
  const problems: BotProblem[] = [];
  const variants: Array<[string, Record<string, unknown>]> = [['', manifest.config]];
  for (const tenant of Object.keys(manifest.overrides)) variants.push([`overrides.${tenant}.`, manifestForTenant(manifest, tenant).config]);
  for (const [prefix, config] of variants) {
    try {
      bot.parseConfig(config);
    } catch (caught) {
      if (!(caught instanceof InvalidInputError)) throw caught;
      problems.push(error(`${prefix}${caught.field}`, caught.problem));
    }
  }
  return problems;
}

function checkEvents(manifest: BotManifest, bot: AnyBotDefinition): BotProblem[] {
  const subscribed = new Set(manifest.events.map((entry) => entry.event));
  const hasCommands = Object.keys(bot.commands).length > 0;
  const problems: BotProblem[] = [];
  manifest.events.forEach((entry, i) => {
    const readsCommands = hasCommands && COMMAND_EVENTS.includes(entry.event);
    if (!(entry.event in bot.on) && !readsCommands) problems.push(warning(`events.${i}`, `no handler for ${entry.event} in the bot's "on"`));
  });
  for (const event of Object.keys(bot.on) as EventName[]) {
    if (!subscribed.has(event)) problems.push(warning(`on.${event}`, `${event} is handled but not listed in the manifest's events, so it never arrives`));
  }
  if (hasCommands && !COMMAND_EVENTS.some((event) => subscribed.has(event))) {
    problems.push(warning('events', 'the bot has commands but subscribes to neither post.created nor comment.created, so it never sees them'));
  }
  return problems;
}

function checkReports(manifest: BotManifest, bot: AnyBotDefinition): BotProblem[] {
  return manifest.reports.flatMap((entry, i) =>
    entry.report in bot.reports ? [] : [warning(`reports.${i}.report`, `no handler for ${entry.report} in the bot's "reports"`)],
  );
}

function error(field: string, message: string): BotProblem {
  return { field, message, severity: 'error' };
}

function warning(field: string, message: string): BotProblem {
  return { field, message, severity: 'warning' };
}
