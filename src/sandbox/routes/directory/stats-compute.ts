import type { SandboxContext } from '../../context';
import { isListedUser } from '../../serialize/user';
import { KIND, type GroupRecord, type UserRecord } from '../../state/records';
import { isoDate, zonedMidnight } from '../../time';

const DAY_MS = 86_400_000;
type StoredUser = UserRecord & { id: number };

/** The calendar day `days` before today, in the customer's zone. */
function dayBefore(ctx: SandboxContext, days: number): string {
  return isoDate(ctx.now() - days * DAY_MS, ctx.settings.timezone);
}

/**
 * spec: Statistics, GET /stats/users. `total` counts every employee account that is not deactivated
 * (pending invitations included); `registered` those who accepted. Activity reads `last_active_on`
 * (active within the window), novelty `registered_at`.
 */
export function usersSummary(ctx: SandboxContext): Record<string, number> {
  const employees = ctx.db.filter<StoredUser>(KIND.users, (u) => u.kind === 'default' && u.deleted_at === null && u.status !== 'deactivated');
  const registered = employees.filter(isListedUser);
  const activeSince = (days: number): number => {
    const from = dayBefore(ctx, days);
    return registered.filter((u) => u.last_active_on !== null && u.last_active_on >= from).length;
  };
  const todayStart = zonedMidnight(ctx.today(), ctx.settings.timezone);
  const newSince = (days: number, until = ctx.now()): number =>
    registered.filter((u) => u.registered_at !== null && u.registered_at >= todayStart - days * DAY_MS && u.registered_at <= until).length;
  return {
    total: employees.length,
    registered: registered.length,
    active_yesterday: activeSince(1),
    active_7d: activeSince(7),
    active_30d: activeSince(30),
    new_yesterday: newSince(1, todayStart - 1),
    new_7d: newSince(7),
    new_30d: newSince(30),
  };
}

/** Departments (optionally only `groupIds`) with their registered members. */
function departmentsWithMembers(ctx: SandboxContext, groupIds: number[] | undefined): { group: GroupRecord; members: StoredUser[] }[] {
  const users = ctx.db.filter<StoredUser>(KIND.users, (u) => isListedUser(u) && u.kind === 'default');
  return ctx.db
    .filter<GroupRecord & { id: number }>(KIND.groups, (g) => g.type === 'department' && (groupIds === undefined || groupIds.includes(g.id)))
    .map((group) => ({ group, members: users.filter((u) => u.memberships.some((m) => m.group_id === group.id)) }));
}

const percent = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

/** spec: Statistics, GET /stats/adoption — active means active within the last 30 days; averages are percentages. */
export function adoption(ctx: SandboxContext, groupIds: number[] | undefined): Record<string, unknown> {
  const from = dayBefore(ctx, 30);
  let active = 0;
  let total = 0;
  const departments = departmentsWithMembers(ctx, groupIds).map(({ group, members }) => {
    const activeHere = members.filter((u) => u.last_active_on !== null && u.last_active_on >= from).length;
    active += activeHere;
    total += members.length;
    return {
      id: group.id,
      name: group.name,
      active: activeHere,
      not_active: members.length - activeHere,
      total_employees: members.length,
      average: percent(activeHere, members.length),
    };
  });
  return { adoption_rate: { average: percent(active, total), departments } };
}

/** Monday 00:00 of the week containing `ms`, in the customer's zone. */
function weekStart(ctx: SandboxContext, ms: number): number {
  const date = isoDate(ms, ctx.settings.timezone);
  const weekday = (new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7;
  return zonedMidnight(isoDate(Date.parse(`${date}T12:00:00Z`) - weekday * DAY_MS, 'UTC'), ctx.settings.timezone);
}

/** Record times are epoch ms; tolerate ISO strings from areas that keep them so. */
function toMs(value: unknown): number {
  return typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
}

/**
 * spec: Statistics, GET /stats/content — each of `posts`, `comments`, `reactions`, `chat_messages`,
 * `todo_tasks_completed` as `{ this_week, last_week, total }`, counted from the records of those kinds
 * (by `created_at`, completed todo tasks by `checked_at`; kinds no area keeps count zero).
 */
export function contentActivity(ctx: SandboxContext): Record<string, Record<string, number>> {
  const thisWeek = weekStart(ctx, ctx.now());
  const lastWeek = thisWeek - 7 * DAY_MS;
  const count = (kind: string, visible: (row: Record<string, unknown>) => boolean = () => true, field = 'created_at'): Record<string, number> => {
    const times = ctx.db.filter(kind, visible).map((r) => toMs(r[field]));
    return {
      this_week: times.filter((t) => t >= thisWeek).length,
      last_week: times.filter((t) => t >= lastWeek && t < thisWeek).length,
      total: times.length,
    };
  };
  return {
    posts: count('posts', (p) => p.status === 'published'),
    comments: count('comments'),
    reactions: count('reactions'),
    chat_messages: count('messages', (m) => m.kind === 'chat'),
    todo_tasks_completed: count('todo_tasks', (t) => t.checked_at !== null && t.checked_at !== undefined, 'checked_at'),
  };
}
