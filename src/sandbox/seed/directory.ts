import type { SandboxContext } from '../context';
import type { SeedOptions } from '../module';
import { DEFAULT_BOT_AVATAR_URL } from '../serialize/bot';
import { KIND, SANDBOX_TOKEN, type GroupRecord, type TokenRecord, type UserRecord } from '../state/records';
import { zonedMidnight } from '../time';
import { newUser } from './base';
import { avoidMonthDay, dateFromIndex, daysAgo, isLeapYear, monthDay, yearsBefore } from './directory-dates';
import { DEMO_PEOPLE, DEPARTMENTS, PROFESSIONS, emailSlug, type DemoPerson } from './directory-people';
import { DIRECTORY_REFS_KEY, type DirectorySeedRefs } from './directory-refs';
import { seedLargeUsers } from './large';
import { seedLocales } from './directory-locales';

const DAY_MS = 86_400_000;
type Membership = UserRecord['memberships'][number];

interface SeededGroups {
  departments: Record<string, number>;
  professions: Record<string, number>;
  custom: number;
  system: number;
}

/**
 * The directory of each seed: `empty` has only the base users (and the active locales); `demo` is one
 * company of about 40 registered people in four departments; `large` is the demo plus
 * `options.users` generated employees (default 10,000). Writes its refs under `seed.directory`.
 */
export function seedDirectory(ctx: SandboxContext, options: SeedOptions): void {
  seedLocales(ctx);
  if (options.seed === 'empty') return;
  const refs = seedDemoDirectory(ctx);
  if (options.seed === 'large') refs.generated = seedLargeUsers(ctx, refs, options.users ?? 10_000);
  ctx.db.setMeta(DIRECTORY_REFS_KEY, refs);
}

function seedDemoDirectory(ctx: SandboxContext): DirectorySeedRefs {
  const groups = seedGroups(ctx);
  const walls = seedWalls(ctx, groups);
  const people = seedPeople(ctx, groups);
  const special = seedSpecialUsers(ctx, groups);
  const base = baseUserIds(ctx);
  // the admin of the base seed belongs to the company like everyone else
  ctx.db.update<UserRecord & { id: number }>(KIND.users, base.admin_user_id, { memberships: [{ group_id: groups.system, is_manager: false }] });
  return {
    ...base,
    departments: groups.departments,
    professions: groups.professions,
    custom_group_id: groups.custom,
    system_group_id: groups.system,
    ...walls,
    ...people,
    ...special,
    registered_user_ids: [base.admin_user_id, ...people.all, special.kiosk_user_id, special.shadow_user_id],
    generated: null,
    seeded_on: ctx.today(),
  };
}

/** The users of seed/base.ts: the owner of the seeded token, the company user and the system user. */
function baseUserIds(ctx: SandboxContext): Pick<DirectorySeedRefs, 'admin_user_id' | 'company_user_id' | 'system_user_id'> {
  const token = ctx.db.find<TokenRecord>(KIND.tokens, (t) => t.token === SANDBOX_TOKEN);
  const idOfKind = (kind: UserRecord['kind']): number => ctx.db.find<UserRecord & { id: number }>(KIND.users, (u) => u.kind === kind)?.id ?? 0;
  return { admin_user_id: token?.user_id ?? 1, company_user_id: idOfKind('customer'), system_user_id: idOfKind('system') };
}

function seedGroups(ctx: SandboxContext): SeededGroups {
  const created_at = ctx.now() - 6 * 365 * DAY_MS;
  const insert = (name: string, type: GroupRecord['type'], is_open: boolean | null = null): number =>
    ctx.db.insert(KIND.groups, { name, type, is_open, created_at }).id;
  const departments = Object.fromEntries(DEPARTMENTS.map((name) => [name, insert(name, 'department')]));
  const professions = Object.fromEntries(PROFESSIONS.map((name) => [name, insert(name, 'profession')]));
  const custom = insert('Running Club', 'custom', true);
  // spec: Group — system groups are never returned by /groups
  const system = insert('All employees', 'system');
  return { departments, professions, custom, system };
}

function seedWalls(ctx: SandboxContext, groups: SeededGroups): Pick<DirectorySeedRefs, 'company_wall_id' | 'department_walls'> {
  const created_at = ctx.now() - 6 * 365 * DAY_MS;
  const company = ctx.db.insert(KIND.walls, { name: 'Company', group_ids: [], created_at });
  const department_walls: Record<string, number> = {};
  for (const [name, id] of Object.entries(groups.departments)) {
    department_walls[name] = ctx.db.insert(KIND.walls, { name, group_ids: [id], created_at }).id;
  }
  return { company_wall_id: company.id, department_walls };
}

/** Positions in DEMO_PEOPLE with a role in the seed (see directory-refs.ts). */
const ROLE = { birthday: [4, 9], anniversary: [5, 10], synced: 6, manualHire: 11, leapDay: 14, plain: [7, 8, 12, 13, 15, 17], runners: [4, 8, 12, 16, 20] };

type PeopleRefs = Pick<
  DirectorySeedRefs,
  | 'managers'
  | 'manager_ids'
  | 'birthday_today_user_ids'
  | 'anniversary_today_user_ids'
  | 'synced_user_id'
  | 'manual_hire_user_id'
  | 'manual_hire'
  | 'leap_day_birthday_user_id'
  | 'employee_ids'
> & { all: number[] };

function seedPeople(ctx: SandboxContext, groups: SeededGroups): PeopleRefs {
  const dates = specialDates(ctx.today());
  const ids = DEMO_PEOPLE.map((person, i) => ctx.db.insert(KIND.users, newUser(ctx, personFields(ctx, groups, dates, person, i))).id);
  const at = (i: number): number => ids[i] as number;
  const managers = Object.fromEntries(DEPARTMENTS.map((name, i) => [name, at(i)]));
  return {
    all: ids,
    managers,
    manager_ids: Object.values(managers),
    birthday_today_user_ids: ROLE.birthday.map(at),
    anniversary_today_user_ids: ROLE.anniversary.map(at),
    synced_user_id: at(ROLE.synced),
    manual_hire_user_id: at(ROLE.manualHire),
    manual_hire: { manual: dates.manualHire, synced: dates.manualHireSynced },
    leap_day_birthday_user_id: at(ROLE.leapDay),
    employee_ids: ROLE.plain.map(at),
  };
}

/** The i-th demo person: the first four head their departments; everyone has a profession. */
function personFields(ctx: SandboxContext, groups: SeededGroups, dates: SpecialDates, person: DemoPerson, i: number): Parameters<typeof newUser>[1] {
  const today = ctx.today();
  const isManager = i < DEPARTMENTS.length;
  const memberships: Membership[] = [
    { group_id: groups.departments[person.department] as number, is_manager: isManager },
    { group_id: groups.professions[PROFESSIONS[i % 2] as string] as number, is_manager: false },
    { group_id: groups.system, is_manager: false },
  ];
  if (ROLE.runners.includes(i)) memberships.push({ group_id: groups.custom, is_manager: i === ROLE.runners[0] });
  const hired = personHireDate(i, today, dates);
  return {
    first_name: person.first,
    last_name: person.last,
    email: `${emailSlug(person.first)}.${emailSlug(person.last)}@sandbox.example`,
    title: person.title,
    memberships,
    is_manager: isManager,
    ...hired,
    date_of_birth: personBirthDate(i, today, dates),
    last_active_on: daysAgo(ctx.now(), activityLag(i), ctx.settings.timezone),
    ...joinTimes(ctx, hired.hired_at_manual ?? hired.hired_at_synced ?? today),
    external_id: i === ROLE.synced || i === ROLE.manualHire ? `hr-${1000 + i}` : null,
  };
}

interface SpecialDates {
  birthdays: [string, string];
  anniversaries: [string, string];
  manualHire: string;
  manualHireSynced: string;
}

/** Dates that make "today" interesting: two birthdays (different years) and two hire anniversaries. */
function specialDates(today: string): SpecialDates {
  const md = monthDay(today);
  // 1988 and 1996 are leap years, so a Feb 29 today still gets its two birthdays
  const birthdays: [string, string] = [`1988-${md}`, `1996-${md}`];
  const leapToday = md === '02-29' && isLeapYear(Number(today.slice(0, 4)));
  const anniversaries: [string, string] = leapToday ? [yearsBefore(today, 4), yearsBefore(today, 8)] : [yearsBefore(today, 1), yearsBefore(today, 5)];
  const year = Number(today.slice(0, 4));
  return {
    birthdays,
    anniversaries,
    manualHire: avoidMonthDay(`${year - 4}-10-01`, md),
    manualHireSynced: avoidMonthDay(`${year - 3}-01-15`, md),
  };
}

function personHireDate(i: number, today: string, dates: SpecialDates): Pick<UserRecord, 'hired_at_manual' | 'hired_at_synced'> {
  const year = Number(today.slice(0, 4));
  if (i === ROLE.anniversary[0]) return { hired_at_manual: dates.anniversaries[0], hired_at_synced: null };
  if (i === ROLE.anniversary[1]) return { hired_at_manual: dates.anniversaries[1], hired_at_synced: null };
  // spec: User.hired_at — synced from the external system; the other synced user's manual date wins
  if (i === ROLE.synced) return { hired_at_manual: null, hired_at_synced: avoidMonthDay(`${year - 6}-04-01`, monthDay(today)) };
  if (i === ROLE.manualHire) return { hired_at_manual: dates.manualHire, hired_at_synced: dates.manualHireSynced };
  return { hired_at_manual: avoidMonthDay(dateFromIndex(year - 2 - (i % 9), i), monthDay(today)), hired_at_synced: null };
}

function personBirthDate(i: number, today: string, dates: SpecialDates): string | null {
  if (i === ROLE.birthday[0]) return dates.birthdays[0];
  if (i === ROLE.birthday[1]) return dates.birthdays[1];
  if (i === ROLE.leapDay) return '1992-02-29';
  // spec: User.date_of_birth — "null unless collected": about a third of the company shares it
  if (i % 3 !== 0) return null;
  return avoidMonthDay(dateFromIndex(1970 + ((i * 3) % 30), i + 3), monthDay(today));
}

/** Days since each person was last active: most today or yesterday, some a week or two, a few a month. */
function activityLag(i: number): number {
  if (i % 11 === 10) return 45;
  if (i % 5 === 4) return 9;
  return i % 2;
}

/** Invited two weeks before the hire date, registered the next day (09:00 in the customer's zone). */
function joinTimes(ctx: SandboxContext, hiredAt: string): Pick<UserRecord, 'created_at' | 'registered_at'> {
  const invited = Math.min(zonedMidnight(hiredAt, ctx.settings.timezone) + 9 * 3_600_000 - 14 * DAY_MS, ctx.now() - DAY_MS);
  return { created_at: invited, registered_at: invited + DAY_MS };
}

type SpecialRefs = Pick<DirectorySeedRefs, 'kiosk_user_id' | 'shadow_user_id' | 'pending_user_id' | 'deactivated_user_id' | 'bot_user_id'>;

function seedSpecialUsers(ctx: SandboxContext, groups: SeededGroups): SpecialRefs {
  const now = ctx.now();
  const ops = groups.departments.Operations as number;
  const member = (group_id: number): Membership[] => [
    { group_id, is_manager: false },
    { group_id: groups.system, is_manager: false },
  ];
  const joined = { created_at: now - 400 * DAY_MS, registered_at: now - 399 * DAY_MS };
  const kiosk = ctx.db.insert(
    KIND.users,
    newUser(ctx, { kind: 'kiosk', first_name: 'Warehouse', last_name: 'Kiosk', email: 'kiosk@sandbox.example', memberships: member(ops), ...joined }),
  );
  const shadow = ctx.db.insert(
    KIND.users,
    newUser(ctx, { kind: 'shadow', first_name: 'Seasonal', last_name: 'Worker', email: 'shadow@sandbox.example', memberships: member(ops), ...joined }),
  );
  // an invitation sent two days ago and not yet accepted (spec: Users — pending invitations are omitted)
  const pending = ctx.db.insert(
    KIND.users,
    newUser(ctx, {
      status: 'pending',
      first_name: 'Nina',
      last_name: 'Neumann',
      email: 'nina.neumann@sandbox.example',
      title: 'Junior Developer',
      memberships: member(groups.departments.Engineering as number),
      hired_at_manual: daysAgo(now, -7, ctx.settings.timezone),
      created_at: now - 2 * DAY_MS,
      registered_at: null,
      last_active_on: null,
    }),
  );
  const deactivated = ctx.db.insert(
    KIND.users,
    newUser(ctx, {
      status: 'deactivated',
      first_name: 'Otto',
      last_name: 'Alt',
      email: 'otto.alt@sandbox.example',
      title: 'Former Sales Lead',
      memberships: member(groups.departments.Sales as number),
      hired_at_manual: '2015-03-02',
      ...joined,
      last_active_on: daysAgo(now, 120, ctx.settings.timezone),
    }),
  );
  const bot = ctx.db.insert(
    KIND.users,
    newUser(ctx, {
      kind: 'bot',
      first_name: 'Sandbox Bot',
      last_name: '',
      name: 'Sandbox Bot',
      email: 'sandbox-bot@bots.sandbox.example',
      avatar_url: DEFAULT_BOT_AVATAR_URL,
      created_at: now - 30 * DAY_MS,
      registered_at: now - 30 * DAY_MS,
      last_active_on: null,
    }),
  );
  return { kiosk_user_id: kiosk.id, shadow_user_id: shadow.id, pending_user_id: pending.id, deactivated_user_id: deactivated.id, bot_user_id: bot.id };
}
