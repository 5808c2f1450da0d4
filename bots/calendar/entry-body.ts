import { createHash } from 'node:crypto';
import { localDateTime, type IcsOccurrence } from 'intrabot/helpers';
import type { CalendarConfig } from './calendar-config';

/** A calendar entry as the bot writes it (spec: Calendar entries, create fields). */
export interface EntryBody {
  title: string;
  starts_at: string;
  starts_time?: string;
  ends_at: string;
  ends_time?: string;
  body?: string;
  groups: number[];
  calendar_event_type_id?: number;
}

/**
 * The platform's entry for an occurrence. The platform's dates and times carry no zone (spec: Calendar
 * entry, `starts_at` date, `starts_time` time): they are written in the tenant's zone. An all-day event
 * is dates alone (its last day, not ICS's exclusive end).
 */
export function entryBody(event: IcsOccurrence, mirror: NonNullable<CalendarConfig['mirror']>, timeZone: string): EntryBody {
  const text = [event.description, event.location ? `📍 ${event.location}` : undefined].filter(Boolean).join('\n\n');
  const common = {
    title: event.summary,
    ...(text ? { body: text } : {}),
    groups: mirror.groups,
    ...(mirror.calendar_event_type_id === undefined ? {} : { calendar_event_type_id: mirror.calendar_event_type_id }),
  };
  if (event.allDay) return { ...common, starts_at: event.startDate!, ends_at: event.endDate! };
  const start = localDateTime(Date.parse(event.start), timeZone);
  const end = localDateTime(Date.parse(event.end), timeZone);
  return { ...common, starts_at: start.date, starts_time: start.time, ends_at: end.date, ends_time: end.time };
}

/** What the entry says, as a hash: an ICS change the entry shows (title, times, text) changes it; a new DTSTAMP does not. */
export function entryHash(body: EntryBody): string {
  const fields = Object.keys(body)
    .sort()
    .map((key) => [key, body[key as keyof EntryBody]]);
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 32);
}
