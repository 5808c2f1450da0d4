import type { SandboxContext } from '../context';
import { KIND, type UserRecord } from '../state/records';
import { isoDate } from '../time';
import { dateFromIndex } from './directory-dates';
import { LARGE_FIRST_NAMES, LARGE_LAST_NAMES, emailSlug } from './directory-people';
import type { DirectorySeedRefs } from './directory-refs';

const DAY_MS = 86_400_000;
/** Generated users joined over the past eight years. */
const SPREAD_DAYS = 8 * 365;

/**
 * The `large` seed's employees, for benchmarks: `count` deterministic users spread over the four
 * departments and both professions, each created on a different day of the past eight years (so
 * `since` syncs have something to skip), in one transaction.
 */
export function seedLargeUsers(ctx: SandboxContext, refs: DirectorySeedRefs, count: number): DirectorySeedRefs['generated'] {
  const departments = Object.values(refs.departments);
  const professions = Object.values(refs.professions);
  const now = ctx.now();
  const memo = new Map<number, string>();
  const dayBefore = (days: number): string => {
    let date = memo.get(days);
    if (date === undefined) {
      date = isoDate(now - days * DAY_MS, ctx.settings.timezone);
      memo.set(days, date);
    }
    return date;
  };
  let first = 0;
  let last = 0;
  ctx.db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const user = ctx.db.insert(KIND.users, largeUser(i, count, { departments, professions, system: refs.system_group_id, now, dayBefore }));
      if (i === 0) first = user.id;
      last = user.id;
    }
  });
  return count > 0 ? { first_id: first, last_id: last, count } : null;
}

interface LargeContext {
  departments: number[];
  professions: number[];
  system: number;
  now: number;
  /** The calendar date `days` days before now; memoised, as formatting dates in a zone is slow. */
  dayBefore(days: number): string;
}

function largeUser(i: number, count: number, c: LargeContext): Omit<UserRecord, 'id'> {
  const firstName = LARGE_FIRST_NAMES[i % LARGE_FIRST_NAMES.length] as string;
  const lastName = LARGE_LAST_NAMES[Math.floor(i / LARGE_FIRST_NAMES.length) % LARGE_LAST_NAMES.length] as string;
  // oldest first, so ids and created_at grow together as on a real platform
  const ageDays = Math.round(((count - i) / count) * SPREAD_DAYS) + 1;
  const created = c.now - ageDays * DAY_MS;
  return {
    kind: 'default',
    status: 'registered',
    first_name: firstName,
    last_name: lastName,
    name: `${firstName} ${lastName}`,
    email: `${emailSlug(firstName)}.${emailSlug(lastName)}.${i + 1}@large.sandbox.example`,
    title: null,
    avatar_url: null,
    memberships: [
      { group_id: c.departments[i % c.departments.length] as number, is_manager: false },
      { group_id: c.professions[i % c.professions.length] as number, is_manager: false },
      { group_id: c.system, is_manager: false },
    ],
    is_manager: false,
    hired_at_synced: null,
    hired_at_manual: c.dayBefore(Math.max(0, ageDays - 14)),
    date_of_birth: dateFromIndex(1960 + (i % 45), i),
    is_away: i % 97 === 0,
    last_active_on: c.dayBefore(i % 40),
    registered_at: created + DAY_MS,
    created_at: created,
    external_id: null,
    deleted_at: null,
    onboarding_completed_at: Math.min(created + 30 * DAY_MS, c.now),
  };
}
