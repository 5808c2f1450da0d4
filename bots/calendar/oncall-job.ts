import type { BotContext, JobRun } from 'intrabot';
import { claimOnce, type IcsOccurrence } from 'intrabot/helpers';
import type { CalendarConfig } from './calendar-config';
import { failIfUnread, readCalendars } from './read-calendars';

type Ctx = BotContext<CalendarConfig>;

/** One person on call, and until when (ISO 8601). */
export interface OnCall {
  name: string;
  until: string;
}

const TWO_DAYS_MS = 2 * 86_400_000;

/**
 * Who the on-call events name at `at`: the events that are going on then (not cancelled) whose summary
 * matches `pattern`, each name once (its first group, else the whole summary), by start.
 *
 * @example onCallAt(events, Date.parse('2026-12-03T08:00:00Z'), '^on call:\\s*(.+)$') // => [{ name: 'Ana Lima', until: '2026-12-07T08:00:00.000Z' }]
 */
export function onCallAt(events: readonly IcsOccurrence[], at: number, pattern: string): OnCall[] {
  const matcher = new RegExp(pattern, 'i');
  const people = new Map<string, OnCall>();
  for (const event of events) {
    if (event.status === 'cancelled' || Date.parse(event.start) > at || Date.parse(event.end) <= at) continue;
    const match = matcher.exec(event.summary);
    const name = (match?.[1] ?? match?.[0])?.trim();
    if (name && !people.has(name.toLowerCase())) people.set(name.toLowerCase(), { name, until: event.end });
  }
  return [...people.values()];
}

/**
 * The morning announcement: who is on call at the slot's time, posted once a day (claimed for the
 * slot's date, so a rerun or a second replica posts nothing). A rota with nobody on call says so: a
 * gap in the rota is news too.
 */
export async function onCallJob(ctx: Ctx, run: JobRun): Promise<void> {
  const config = ctx.config.oncall;
  if (!config) return ctx.log.debug('oncall is not configured: nothing to announce');
  const read = await readCalendars(ctx, [config.calendar], { from: run.slot, to: run.slot + 1 });
  const events = read.occurrences.get(config.calendar);
  if (events) {
    const date = ctx.dateOf(run.slot);
    if (await claimOnce(ctx, `oncall:${date}`, TWO_DAYS_MS)) {
      await ctx.post(config.target, { template: 'oncall', data: { date, people: onCallAt(events, run.slot, config.pattern), calendar: config.calendar } });
    } else {
      ctx.log.info(`on call for ${date} announced already`, { date });
    }
  }
  failIfUnread(read);
}
