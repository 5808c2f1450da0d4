import type { BotContext, JobRun } from 'intrabot';
import { claimOnce, localDateTime } from 'intrabot/helpers';
import type { CalendarConfig } from './calendar-config';
import { failIfUnread, readCalendars } from './read-calendars';

type Ctx = BotContext<CalendarConfig>;

/**
 * Every few minutes: a reminder for each event of the reminder calendars that starts within `before`
 * and has not started yet (not cancelled, not all-day). Each occurrence is reminded once for its start
 * (claimed by its key and start): a rerun or a second replica sends nothing, an event moved to
 * another time is reminded again for that time. A run that came late still reminds of what has not
 * started, with the minutes left.
 */
export async function remindJob(ctx: Ctx, _run: JobRun): Promise<void> {
  const config = ctx.config.reminders;
  if (!config) return ctx.log.debug('reminders are not configured: nothing to remind');
  const now = ctx.now();
  const read = await readCalendars(ctx, config.calendars, { from: now, to: now + config.before + 1 });
  for (const [calendar, events] of read.occurrences) {
    for (const event of events) {
      const start = Date.parse(event.start);
      if (event.status === 'cancelled' || event.allDay || start <= now || start > now + config.before) continue;
      if (!(await claimOnce(ctx, `remind:${calendar}:${event.key}:${event.start}`, config.before + 86_400_000))) continue;
      const minutes = Math.max(1, Math.round((start - now) / 60_000));
      await ctx.post(config.target, { template: 'reminder', data: { calendar, event, minutes, starts: localDateTime(start, ctx.tenant.timezone).time } });
    }
  }
  failIfUnread(read);
}
