import type { SandboxContext } from '../context';
import { KIND, type GroupRecord, type UserRecord } from '../state/records';
import { isListedUser } from './user';

/** Manager `{ id, name }` lists per group id, from every listed user's memberships (one pass over the users). */
export function managersByGroup(ctx: SandboxContext): Map<number, { id: number; name: string }[]> {
  const out = new Map<number, { id: number; name: string }[]>();
  for (const user of ctx.db.all<UserRecord & { id: number }>(KIND.users)) {
    if (!isListedUser(user)) continue;
    for (const m of user.memberships) {
      if (!m.is_manager) continue;
      const list = out.get(m.group_id) ?? [];
      list.push({ id: user.id, name: user.name });
      out.set(m.group_id, list);
    }
  }
  return out;
}

/** A group embedded elsewhere (walls): no `managers` (spec: Group). */
export function embeddedGroup(ctx: SandboxContext, group: GroupRecord): Record<string, unknown> {
  return { id: group.id, name: group.name, type: group.type, created_at: ctx.iso(group.created_at) };
}

/**
 * A group as the /groups endpoints return it, with `managers` (spec: Group). `is_open` is shown on
 * custom groups only, the one type it applies to (spec: Other endpoints that exist, POST /groups).
 */
export function serializeGroup(ctx: SandboxContext, group: GroupRecord, managers: Map<number, { id: number; name: string }[]>): Record<string, unknown> {
  return {
    ...embeddedGroup(ctx, group),
    ...(group.type === 'custom' ? { is_open: group.is_open ?? false } : {}),
    managers: managers.get(group.id) ?? [],
  };
}

/** spec: Group — system groups are never returned by /groups. */
export function isVisibleGroup(group: GroupRecord | undefined): group is GroupRecord {
  return group !== undefined && group.type !== 'system';
}
