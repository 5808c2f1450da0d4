import type { SandboxContext } from '../context';
import { KIND, type GroupRecord, type UserRecord } from '../state/records';

/** The type a user carries on the wire (spec: User.type). Kiosk, bot and shadow users are kinds of user. */
function wireType(user: UserRecord): string {
  return user.kind;
}

/** spec: User.hired_at — the effective hire date: a manual override wins over a synced value. */
export function effectiveHiredAt(user: UserRecord): string | null {
  return user.hired_at_manual ?? user.hired_at_synced;
}

/** A group embedded in a user's `groups[]`, with `is_manager` per membership (spec: Group). */
export function embeddedGroups(ctx: SandboxContext, user: UserRecord): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const m of user.memberships) {
    const group = ctx.db.get<GroupRecord>(KIND.groups, m.group_id);
    // spec: Group — system groups are never returned
    if (!group || group.type === 'system') continue;
    out.push({ id: group.id, name: group.name, type: group.type, created_at: ctx.iso(group.created_at), is_manager: m.is_manager });
  }
  return out;
}

/** The full User (spec: User). */
export function serializeUser(ctx: SandboxContext, user: UserRecord): Record<string, unknown> {
  return {
    id: user.id,
    name: user.name,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    type: wireType(user),
    avatar_url: user.avatar_url,
    title: user.title,
    groups: embeddedGroups(ctx, user),
    is_manager: user.is_manager,
    hired_at: effectiveHiredAt(user),
    date_of_birth: user.date_of_birth,
    is_away: user.is_away,
    last_active_on: user.last_active_on,
    registered_at: user.registered_at === null ? null : ctx.iso(user.registered_at),
    created_at: ctx.iso(user.created_at),
  };
}

/** The reduced author embedded in posts' webhook payloads and events: `{ id, name, email, avatar_url }`. */
export function reducedUser(user: UserRecord): Record<string, unknown> {
  return { id: user.id, name: user.name, email: user.email, avatar_url: user.avatar_url };
}

/** Looks a user up by id, including every kind and status. */
export function findUser(ctx: SandboxContext, id: number): UserRecord | undefined {
  return ctx.db.get<UserRecord & { id: number }>(KIND.users, id);
}

/** spec: Users — "registered" means accepted an invite and not deactivated or deleted. */
export function isListedUser(user: UserRecord): boolean {
  return user.status === 'registered' && user.deleted_at === null && (user.kind === 'default' || user.kind === 'kiosk' || user.kind === 'shadow');
}
