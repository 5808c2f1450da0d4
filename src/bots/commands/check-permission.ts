import type { CommandInfo, CommandUser } from './command-spec';

export type PermissionResult = { ok: true } | { ok: false; reason: string };

/**
 * Whether `user` may run `command`. Needs the full user (spec: User, `groups[].is_manager` and
 * `is_manager`): event payloads carry a reduced author, so the caller looks the user up first.
 * The reason is written for the person who asked, and names no group ids.
 *
 * @example checkPermission({ name: 'deploy', permissions: { managers: true } }, { is_manager: false, groups: [] })
 * // => { ok: false, reason: 'Sorry, /deploy is only available to managers.' }
 */
export function checkPermission(command: Pick<CommandInfo, 'name' | 'permissions'>, user: CommandUser, prefix = '/'): PermissionResult {
  const rules = command.permissions;
  if (!rules || (!rules.managers && !rules.groups)) return { ok: true };
  const memberships = user.groups ?? [];
  const label = `${prefix}${command.name}`;
  if (rules.groups && rules.managers) {
    const allowed = memberships.some((g) => rules.groups?.includes(g.id) && (g.is_manager === true || user.is_manager === true));
    return allowed ? { ok: true } : { ok: false, reason: `Sorry, ${label} is only available to managers of the teams it is set up for.` };
  }
  if (rules.groups) {
    const allowed = memberships.some((g) => rules.groups?.includes(g.id));
    return allowed ? { ok: true } : { ok: false, reason: `Sorry, ${label} is only available to members of the teams it is set up for.` };
  }
  const manager = user.is_manager === true || memberships.some((g) => g.is_manager === true);
  return manager ? { ok: true } : { ok: false, reason: `Sorry, ${label} is only available to managers.` };
}
