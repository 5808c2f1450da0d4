import type { SandboxContext } from '../../context';
import { isListedUser } from '../../serialize/user';
import { KIND, type UserRecord } from '../../state/records';
import { zonedMidnight } from '../../time';

const DAY_MS = 86_400_000;
type StoredUser = UserRecord & { id: number };
export type Granularity = 'day' | 'week' | 'month';

interface Period {
  key: Record<string, number>;
  start: string;
  end: string;
}

/** ISO 8601 week-numbering year and week of a date (`2026-11-22` → 2026, 47). */
export function isoWeek(date: string): { year: number; week: number } {
  const d = new Date(`${date}T00:00:00Z`);
  const weekday = (d.getUTCDay() + 6) % 7;
  const thursday = new Date(d.getTime() + (3 - weekday) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS));
  return { year, week };
}

function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The `scope` periods ending with the current one, oldest first, as date ranges [start, end). */
export function periods(today: string, granularity: Granularity, scope: number): Period[] {
  const out: Period[] = [];
  for (let back = scope - 1; back >= 0; back--) {
    if (granularity === 'day') {
      const start = shiftDate(today, -back);
      out.push({
        key: { year: Number(start.slice(0, 4)), month: Number(start.slice(5, 7)), day: Number(start.slice(8, 10)) },
        start,
        end: shiftDate(start, 1),
      });
    } else if (granularity === 'week') {
      const monday = shiftDate(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7) - 7 * back);
      out.push({ key: isoWeek(monday), start: monday, end: shiftDate(monday, 7) });
    } else {
      const first = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1 - back, 1));
      const next = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 1));
      out.push({
        key: { year: first.getUTCFullYear(), month: first.getUTCMonth() + 1 },
        start: first.toISOString().slice(0, 10),
        end: next.toISOString().slice(0, 10),
      });
    }
  }
  return out;
}

/** A stable number in [0, 1) from a period key, standing in for the history the sandbox does not keep. */
function variation(key: Record<string, number>): number {
  const seed = Object.values(key).reduce((acc, v) => Math.imul(acc ^ v, 2_654_435_761) >>> 0, 17);
  return ((seed >>> 8) % 100) / 100;
}

const SESSIONS_PER_ACTIVE_USER: Record<Granularity, number> = { day: 2, week: 8, month: 30 };

/**
 * spec: Statistics, GET /stats/engagement — `{ year, <period key>, total_users, app_users,
 * active_users, app_time, sessions }` per period. Totals count registered users who had joined by
 * the end of the period; the current period's active users come from `last_active_on`, earlier
 * periods get a plausible, deterministic share (the sandbox keeps no activity history).
 */
export function engagement(ctx: SandboxContext, granularity: Granularity, scope: number, groupIds: number[] | undefined): Record<string, number>[] {
  const tz = ctx.settings.timezone;
  const users = ctx.db.filter<StoredUser>(
    KIND.users,
    (u) => isListedUser(u) && u.kind === 'default' && (groupIds === undefined || u.memberships.some((m) => groupIds.includes(m.group_id))),
  );
  const list = periods(ctx.today(), granularity, scope);
  return list.map((period, index) => {
    const endMs = zonedMidnight(period.end, tz);
    const total = users.filter((u) => (u.registered_at ?? u.created_at) < endMs).length;
    const current = index === list.length - 1;
    const active = current
      ? users.filter((u) => u.last_active_on !== null && u.last_active_on >= period.start && u.last_active_on < period.end).length
      : Math.round(total * (0.55 + 0.3 * variation(period.key)));
    const sessions = active * SESSIONS_PER_ACTIVE_USER[granularity];
    return { ...period.key, total_users: total, app_users: Math.round(active * 0.6), active_users: active, app_time: sessions * 7 * 60, sessions };
  });
}
