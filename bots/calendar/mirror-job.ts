import { ApiNotFoundError, type BotContext, type JobRun } from 'intrabot';
import { zonedToUtc, type IcsOccurrence } from 'intrabot/helpers';
import type { CalendarConfig } from './calendar-config';
import { entryBody, entryHash, type EntryBody } from './entry-body';
import { failIfUnread, readCalendars } from './read-calendars';

type Ctx = BotContext<CalendarConfig>;
type Mirror = NonNullable<CalendarConfig['mirror']>;

/** An occurrence the bot has put on the platform: the entry's id, the hash of what it says, its start. */
export interface Mirrored {
  id?: number;
  hash: string;
  start: string;
  /** Written before the create: a run that died before it kept the id looks for the entry instead of making another. */
  pending?: { title: string; starts_at: string; starts_time?: string };
}
/** The entries of one calendar, by occurrence key. */
export type MirrorIndex = Record<string, Mirrored>;

export const indexKey = (calendar: string) => `mirror:${calendar}`;
const INDEX_TTL_MS = 400 * 86_400_000;

/**
 * Copies the events of the mirror calendars into the platform as calendar entries (spec: Calendar
 * entries), from the start of today to `horizon` ahead: an occurrence is created once, updated when
 * what its entry says changes (a content hash kept in the store), and its entry deleted when it is
 * cancelled (STATUS:CANCELLED, or an EXDATE) or gone from the feed. Entries of past days are left as
 * they are.
 */
export async function mirrorJob(ctx: Ctx, _run: JobRun): Promise<void> {
  const mirror = ctx.config.mirror;
  if (!mirror) return ctx.log.debug('mirror is not configured: nothing to copy');
  const today = ctx.today().split('-').map(Number) as [number, number, number];
  const from = zonedToUtc({ year: today[0], month: today[1], day: today[2], hour: 0, minute: 0, second: 0 }, ctx.tenant.timezone);
  const read = await readCalendars(ctx, mirror.calendars, { from, to: ctx.now() + mirror.horizon });
  for (const [calendar, events] of read.occurrences) await mirrorCalendar(ctx, mirror, calendar, events, from);
  failIfUnread(read);
}

async function mirrorCalendar(ctx: Ctx, mirror: Mirror, calendar: string, events: readonly IcsOccurrence[], from: number): Promise<void> {
  const index = (await ctx.store.get<MirrorIndex>(indexKey(calendar))) ?? {};
  // kept after each write: a run that stops half way knows what it made
  const save = () => ctx.store.set(indexKey(calendar), index, { ttlMs: INDEX_TTL_MS });
  const wanted = new Map(events.filter((e) => e.status !== 'cancelled').map((e) => [e.key, e]));
  const counts = { created: 0, updated: 0, removed: 0 };
  for (const [key, event] of wanted) {
    const body = entryBody(event, mirror, ctx.tenant.timezone);
    const hash = entryHash(body);
    let known = index[key];
    if (known?.pending) {
      known = await adoptPending(ctx, known);
      if (known) {
        index[key] = known;
        await save();
      }
    }
    if (known?.id !== undefined && known.hash === hash) continue;
    if (known?.id !== undefined && (await updateEntry(ctx, known.id, body))) {
      index[key] = { id: known.id, hash, start: event.start };
      counts.updated += 1;
    } else {
      index[key] = {
        hash,
        start: event.start,
        pending: { title: body.title, starts_at: body.starts_at, ...(body.starts_time ? { starts_time: body.starts_time } : {}) },
      };
      await save();
      const entry = await ctx.api.calendarEntries.create(body);
      index[key] = { id: Number(entry.id), hash, start: event.start };
      counts.created += 1;
    }
    await save();
  }
  for (const [key, known] of Object.entries(index)) {
    if (wanted.has(key)) continue;
    // a past day's entry stays on the platform; the bot only forgets it
    if (Date.parse(known.start) >= from) {
      if (known.id !== undefined) await deleteEntry(ctx, known.id);
      counts.removed += 1;
    }
    delete index[key];
    await save();
  }
  ctx.log.info(`calendar ${calendar}: ${counts.created} entries created, ${counts.updated} updated, ${counts.removed} removed`, { calendar, ...counts });
}

/** The entry a run made before it died, found by its title and start; else it is made again. */
async function adoptPending(ctx: Ctx, mirrored: Mirrored): Promise<Mirrored | undefined> {
  const pending = mirrored.pending!;
  for await (const entry of ctx.api.calendarEntries.all()) {
    if (
      entry.title === pending.title &&
      entry.starts_at === pending.starts_at &&
      (pending.starts_time === undefined || entry.starts_time === pending.starts_time)
    ) {
      return { id: Number(entry.id), hash: mirrored.hash, start: mirrored.start };
    }
  }
  return undefined;
}

/** PUT; false when the entry is gone (deleted on the platform), so it is made again. */
async function updateEntry(ctx: Ctx, id: number, body: EntryBody): Promise<boolean> {
  try {
    await ctx.api.calendarEntries.update(id, body);
    return true;
  } catch (error) {
    if (error instanceof ApiNotFoundError) return false;
    throw error;
  }
}

async function deleteEntry(ctx: Ctx, id: number): Promise<void> {
  try {
    await ctx.api.calendarEntries.delete(id);
  } catch (error) {
    // deleted on the platform already: what was wanted
    if (!(error instanceof ApiNotFoundError)) throw error;
  }
}
