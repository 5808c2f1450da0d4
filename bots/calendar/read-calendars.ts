import { createHash } from 'node:crypto';
import { IntrabotError, type BotContext } from 'intrabot';
import { conditionalGet, parseIcs, type IcsOccurrence } from 'intrabot/helpers';
import type { CalendarConfig } from './calendar-config';

type Ctx = BotContext<CalendarConfig>;

/** A job that could not read some of its calendars; it did what it could with the others first. */
export class CalendarsUnreadableError extends IntrabotError {
  constructor(readonly failures: { calendar: string; error: string }[]) {
    super('fetch_failed', `calendars not read: ${failures.map((f) => `${f.calendar} (${f.error})`).join('; ')}`);
  }
}

/** What a job reads: each calendar's occurrences in the window, and the calendars that failed. */
export interface CalendarsRead {
  occurrences: Map<string, IcsOccurrence[]>;
  failures: { calendar: string; error: string }[];
}

const short = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/**
 * Reads the named calendars (conditional GETs: an unchanged calendar is a 304, answered from the body
 * kept in the store) and their occurrences overlapping `from`-`to` in the tenant's zone. A calendar
 * that fails (an error, a timeout, not iCalendar) is logged and listed in `failures`, never in the
 * way of the others; one whose url is empty is off and left out.
 */
export async function readCalendars(ctx: Ctx, names: readonly string[], window: { from: number; to: number }): Promise<CalendarsRead> {
  const read: CalendarsRead = { occurrences: new Map(), failures: [] };
  for (const name of names) {
    const calendar = ctx.config.calendars.find((c) => c.name === name);
    if (!calendar || calendar.url === '') {
      ctx.log.debug(`calendar ${name} has no url: off`);
      continue;
    }
    try {
      const got = await conditionalGet(ctx, calendar.url, {
        key: `ics:${name}:${short(calendar.url)}`,
        keepBody: true,
        timeoutMs: ctx.config.timeout,
        accept: 'text/calendar, */*;q=0.5',
      });
      const { events } = parseIcs(got.text ?? '', { ...window, timezone: ctx.tenant.timezone });
      await got.commit();
      read.occurrences.set(name, events);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      ctx.log.warn(`calendar ${name} could not be read: ${message}`, { calendar: name });
      read.failures.push({ calendar: name, error: message });
    }
  }
  return read;
}

/** Ends a job that read some calendars and not others: the run is recorded as failed, naming them. */
export function failIfUnread(read: CalendarsRead): void {
  if (read.failures.length > 0) throw new CalendarsUnreadableError(read.failures);
}
