import ICAL from 'ical.js';
import { z } from 'zod';
import { UnparsableDocumentError } from './feed-parse';
import { isKnownZone, zonedToUtc } from './zoned-time';

/** One occurrence of a calendar event: a single event, or one instance of a recurring one. */
export const IcsOccurrenceSchema = z.object({
  /** What identifies the occurrence across reads: the event's UID, and for an instance of a recurring event its original start (`<uid>@<ISO instant>`). */
  key: z.string(),
  uid: z.string(),
  /** An instance's original start (RECURRENCE-ID), ISO 8601 in UTC; absent for a single event. */
  recurrenceId: z.string().optional(),
  summary: z.string(),
  description: z.string().optional(),
  location: z.string().optional(),
  status: z.enum(['confirmed', 'tentative', 'cancelled']),
  /** A day-long event (`VALUE=DATE`): `startDate` and `endDate` say which days. */
  allDay: z.boolean(),
  /** Start and end, ISO 8601 in UTC; an all-day event's are midnights in `timezone` (the parse option). */
  start: z.string(),
  end: z.string(),
  /** All-day events: the first and the last day (inclusive), `YYYY-MM-DD`. */
  startDate: z.string().optional(),
  endDate: z.string().optional(),
  /** The TZID its times were written in, if any. */
  timezone: z.string().optional(),
});
export type IcsOccurrence = z.infer<typeof IcsOccurrenceSchema>;

export const ParsedIcsSchema = z.object({
  /** The calendar's name (`X-WR-CALNAME`), when it has one. */
  name: z.string().optional(),
  /** The occurrences overlapping the window, cancelled ones included, by start. */
  events: z.array(IcsOccurrenceSchema),
});
export type ParsedIcs = z.infer<typeof ParsedIcsSchema>;

export interface ParseIcsOptions {
  /** The window, ms since the epoch (or ISO 8601): occurrences that overlap it are answered. */
  from: number | string;
  to: number | string;
  /** The zone of floating times and all-day dates, and of a TZID neither the file nor Node knows (default UTC). */
  timezone?: string;
}

/** A recurring event expands to at most this many instances per read (a rule with no end, read from its first year). */
const MAX_INSTANCES = 50_000;

/**
 * Reads an iCalendar document (RFC 5545; ical.js parses it) into the occurrences that overlap
 * `from`-`to`: recurring events expanded (RRULE, RDATE), EXDATE instances left out, RECURRENCE-ID
 * overrides in place of the instances they replace, times read in their TZID through the file's
 * VTIMEZONE or, without one, Node's zone database. Cancelled events and instances are answered with
 * `status: 'cancelled'`. Throws `UnparsableDocumentError` for what is not iCalendar.
 *
 * @example
 * const { events } = parseIcs(text, { from: ctx.now(), to: ctx.now() + 7 * 86_400_000, timezone: ctx.tenant.timezone });
 */
export function parseIcs(text: string, options: ParseIcsOptions): ParsedIcs {
  const root = rootOf(text);
  const from = toMs(options.from, 'from');
  const to = toMs(options.to, 'to');
  const zone = options.timezone ?? 'UTC';
  const added = registerZones(root);
  try {
    const events = mastersOf(root).flatMap((event) => occurrencesOf(event, from, to, zone));
    events.sort((a, b) => a.start.localeCompare(b.start) || a.key.localeCompare(b.key));
    const name = root.getFirstPropertyValue('x-wr-calname');
    return { ...(typeof name === 'string' && name.trim() ? { name: name.trim() } : {}), events };
  } finally {
    // ical.js keeps zones in one process-wide registry: leave it as found
    for (const tzid of added) ICAL.TimezoneService.remove(tzid);
  }
}

function rootOf(text: string): ICAL.Component {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text));
  } catch (error) {
    throw new UnparsableDocumentError(`not an iCalendar document: ${(error as Error).message}`, { cause: error });
  }
  if (root.name !== 'vcalendar') throw new UnparsableDocumentError(`not an iCalendar document: it holds a ${root.name.toUpperCase()}, not a VCALENDAR`);
  return root;
}

function toMs(value: number | string, field: string): number {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new UnparsableDocumentError(`parseIcs: ${field} is not a time: ${String(value)}`);
  return ms;
}

function registerZones(root: ICAL.Component): string[] {
  const added: string[] = [];
  for (const vtimezone of root.getAllSubcomponents('vtimezone')) {
    const tzid = vtimezone.getFirstPropertyValue('tzid');
    if (typeof tzid !== 'string' || ICAL.TimezoneService.has(tzid)) continue;
    ICAL.TimezoneService.register(vtimezone);
    added.push(tzid);
  }
  return added;
}

/** Each event with its RECURRENCE-ID overrides related to it; an override whose event is missing stands alone. */
function mastersOf(root: ICAL.Component): ICAL.Event[] {
  const events = root.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
  const masters = new Map<string, ICAL.Event>();
  for (const event of events) if (!event.isRecurrenceException() && event.uid) masters.set(event.uid, event);
  const alone: ICAL.Event[] = [];
  for (const event of events) {
    if (!event.isRecurrenceException()) continue;
    const master = masters.get(event.uid);
    if (master?.isRecurring()) master.relateException(event);
    else alone.push(event);
  }
  return [...masters.values(), ...alone];
}

function occurrencesOf(event: ICAL.Event, from: number, to: number, zone: string): IcsOccurrence[] {
  if (!event.startDate) return [];
  if (!event.isRecurring()) {
    const rid = event.isRecurrenceException() ? instantOf(event.recurrenceId, zone) : undefined;
    const one = occurrence(event, event, event.startDate, endOf(event.startDate, event.endDate), rid, zone);
    return overlaps(one, from, to) ? [one] : [];
  }
  // instances are generated by their original start; an override may move one into the window from later
  const moved = Object.values(event.exceptions).map((e) => instantOf(e.recurrenceId, zone));
  const until = Math.max(to, ...moved);
  const out: IcsOccurrence[] = [];
  const iterator = event.iterator();
  for (let i = 0, next = iterator.next(); next && i < MAX_INSTANCES; i++, next = iterator.next()) {
    const rid = instantOf(next, zone);
    if (rid > until) break;
    const details = event.getOccurrenceDetails(next);
    const one = occurrence(event, details.item, details.startDate, endOf(details.startDate, details.endDate), rid, zone);
    if (overlaps(one, from, to)) out.push(one);
  }
  return out;
}

const overlaps = (o: IcsOccurrence, from: number, to: number): boolean => {
  const start = Date.parse(o.start);
  const end = Date.parse(o.end);
  return end > start ? start < to && end > from : start >= from && start < to;
};

/** An event without an end lasts its day (a date) or no time at all (RFC 5545, 3.6.1). */
function endOf(start: ICAL.Time, end: ICAL.Time | undefined): ICAL.Time {
  if (end && end.compare(start) >= 0) return end;
  const copy = start.clone();
  if (start.isDate) copy.adjust(1, 0, 0, 0);
  return copy;
}

function occurrence(master: ICAL.Event, item: ICAL.Event, start: ICAL.Time, end: ICAL.Time, rid: number | undefined, zone: string): IcsOccurrence {
  const status = statusOf(item.component.getFirstPropertyValue('status') ?? master.component.getFirstPropertyValue('status'));
  const allDay = start.isDate;
  const startMs = instantOf(start, zone);
  const endMs = instantOf(end, zone);
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const tzid = start.isDate ? undefined : start.zone?.tzid && !['floating', 'UTC'].includes(start.zone.tzid) ? start.zone.tzid : tzidParamOf(start);
  return {
    key: rid === undefined ? master.uid : `${master.uid}@${new Date(rid).toISOString()}`,
    uid: master.uid,
    ...(rid === undefined ? {} : { recurrenceId: new Date(rid).toISOString() }),
    summary: text(item.summary) ?? '(no title)',
    ...(text(item.description) ? { description: text(item.description)! } : {}),
    ...(text(item.location) ? { location: text(item.location)! } : {}),
    status,
    allDay,
    start: new Date(startMs).toISOString(),
    end: new Date(endMs).toISOString(),
    ...(allDay ? { startDate: dateOf(start), endDate: dateOf(lastDayOf(start, end)) } : {}),
    ...(tzid ? { timezone: tzid } : {}),
  };
}

const dateOf = (t: ICAL.Time) => `${t.year}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;

/** The last day of a day-long event: its DTEND is the day after (exclusive). */
function lastDayOf(start: ICAL.Time, end: ICAL.Time): ICAL.Time {
  if (end.compare(start) <= 0) return start;
  const last = end.clone();
  last.adjust(-1, 0, 0, 0);
  return last.compare(start) < 0 ? start : last;
}

function statusOf(value: unknown): IcsOccurrence['status'] {
  const status = typeof value === 'string' ? value.toLowerCase() : '';
  return status === 'cancelled' || status === 'tentative' ? status : 'confirmed';
}

/**
 * The instant of a calendar time: through its zone when ical.js knows it (UTC, or a VTIMEZONE of the
 * file); a TZID only Node knows (no VTIMEZONE given, as many feeds do) through Node's zone database;
 * floating times and dates in `zone`.
 */
function instantOf(time: ICAL.Time, zone: string): number {
  const known = time.zone?.tzid;
  if (!time.isDate && known && known !== 'floating') return time.toUnixTime() * 1000;
  const param = tzidParamOf(time);
  const tzid = !time.isDate && param && isKnownZone(param) ? param : zone;
  return zonedToUtc({ year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second }, tzid);
}

/** The TZID a time was written with when ical.js found no VTIMEZONE for it (it keeps the name, untyped, and reads the time as floating). */
const tzidParamOf = (time: ICAL.Time): string | undefined => {
  const tzid = (time as unknown as { timezone?: unknown }).timezone;
  return typeof tzid === 'string' && tzid ? tzid : undefined;
};
