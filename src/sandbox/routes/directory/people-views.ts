import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { paginate, readPageQuery } from '../../http/pagination';
import { managersByGroup } from '../../serialize/group';
import { effectiveHiredAt, isListedUser } from '../../serialize/user';
import { KIND, type GroupRecord, type UserRecord } from '../../state/records';

type StoredUser = UserRecord & { id: number };
type StoredGroup = GroupRecord & { id: number };

/** Staff cards, the org chart and the manager hub: spec "Other endpoints that exist", shapes not shown (our choice). */
export function registerPeopleViewRoutes(router: ApiRouter, ctx: SandboxContext): void {
  router.route('GET', '/staff-cards', 'read:staff_cards', (request) => {
    const page = readPageQuery(request.query as Record<string, unknown>, ctx.settings.timezone);
    const departments = departmentIndex(ctx);
    return paginate(request, employees(ctx), page, (u) => staffCard(u, departments, ctx.settings.timezone));
  });
  router.route('GET', '/org-chart', 'read:org_chart', (request) => {
    const page = readPageQuery(request.query as Record<string, unknown>, ctx.settings.timezone);
    const parentOf = reportingLines(ctx);
    return paginate(request, employees(ctx), page, (u) => ({ id: u.id, parent_id: parentOf(u), user_id: u.id, name: u.name, title: u.title }));
  });
  router.route('GET', '/manager-hub', 'read:managerhub', (_request, auth) => ({ data: managerHub(ctx, auth.actor) }));
}

/** People who appear in the company's directory views: registered employees (not kiosks or shadow users). */
function employees(ctx: SandboxContext): StoredUser[] {
  return ctx.db.filter<StoredUser>(KIND.users, (u) => isListedUser(u) && u.kind === 'default');
}

function departmentIndex(ctx: SandboxContext): Map<number, StoredGroup> {
  return new Map(ctx.db.filter<StoredGroup>(KIND.groups, (g) => g.type === 'department').map((g) => [g.id, g]));
}

function firstDepartment(user: UserRecord, departments: Map<number, StoredGroup>): StoredGroup | undefined {
  for (const m of user.memberships) {
    const group = departments.get(m.group_id);
    if (group) return group;
  }
  return undefined;
}

function staffCard(user: StoredUser, departments: Map<number, StoredGroup>, timeZone: string): Record<string, unknown> {
  const department = firstDepartment(user, departments);
  return {
    id: user.id,
    user_id: user.id,
    name: user.name,
    title: user.title,
    email: user.email,
    avatar_url: user.avatar_url,
    department: department ? { id: department.id, name: department.name } : null,
    hired_at: effectiveHiredAt(user, timeZone),
    is_away: user.is_away,
  };
}

/**
 * Who reports to whom: an employee to the manager of their department, a department manager to the
 * company's first employee (the admin), who is the root.
 */
function reportingLines(ctx: SandboxContext): (user: StoredUser) => number | null {
  const departments = departmentIndex(ctx);
  const managers = managersByGroup(ctx);
  const root = employees(ctx)[0]?.id ?? null;
  return (user) => {
    if (user.id === root) return null;
    const department = firstDepartment(user, departments);
    const boss = department ? managers.get(department.id)?.find((m) => m.id !== user.id) : undefined;
    return boss?.id ?? root;
  };
}

/**
 * The manager hub of the token's user: the groups they lead and their team's figures (size, away,
 * birthdays and work anniversaries today). Tokens are issued by administrators, so a token user who
 * leads no group sees the hub across every department.
 */
function managerHub(ctx: SandboxContext, actor: UserRecord): Record<string, unknown> {
  const todayMd = ctx.today().slice(5);
  const people = employees(ctx);
  const groups = new Map(ctx.db.all<StoredGroup>(KIND.groups).map((g) => [g.id, g]));
  const ledByActor = actor.memberships
    .filter((m) => m.is_manager)
    .map((m) => groups.get(m.group_id))
    .filter((g): g is StoredGroup => g !== undefined && g.type !== 'system');
  const led = ledByActor.length > 0 ? ledByActor : [...groups.values()].filter((g) => g.type === 'department');
  const ledIds = new Set(led.map((g) => g.id));
  const team = people.filter((u) => u.id !== actor.id && u.memberships.some((m) => ledIds.has(m.group_id)));
  const ref = (u: StoredUser): Record<string, unknown> => ({ id: u.id, name: u.name, title: u.title });
  return {
    user: { id: actor.id, name: actor.name, is_manager: actor.is_manager },
    groups: led.map((g) => ({ id: g.id, name: g.name, type: g.type })),
    team_size: team.length,
    away: team.filter((u) => u.is_away).map(ref),
    birthdays_today: team.filter((u) => u.date_of_birth?.slice(5) === todayMd).map(ref),
    anniversaries_today: team
      .filter((u) => {
        const hired = effectiveHiredAt(u, ctx.settings.timezone);
        return hired.slice(5) === todayMd && hired !== ctx.today();
      })
      .map(ref),
    pending_invitations: ctx.db
      .filter<StoredUser>(KIND.users, (u) => u.status === 'pending' && u.deleted_at === null && u.memberships.some((m) => ledIds.has(m.group_id)))
      .map(ref),
  };
}
