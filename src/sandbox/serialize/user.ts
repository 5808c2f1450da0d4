import type { SandboxContext } from '../context';
import { KIND, type GroupRecord, type UserRecord } from '../state/records';
import { isoDate } from '../time';

/** The type a user carries on the wire (spec: User.type). Kiosk, bot and shadow users are kinds of user. */
function wireType(user: UserRecord): string {
  return user.kind;
}

/** The day the user registered (accepted the invite), in the customer's zone; the invite's day for a user still pending. */
function registrationDate(user: UserRecord, timeZone: string): string {
  return isoDate(user.registered_at ?? user.created_at, timeZone);
}

/**
 * spec: User.hired_at — the effective hire date (a date, never null): a manual override wins over a
 * synced value, and a user with neither (the admin, kiosk and shadow users, users made with
 * `POST /users` without `hired_at`) counts from the registration date. The tenure check reads the
 * same date, so what the API shows is what earns employment badges.
 */
export function effectiveHiredAt(user: UserRecord, timeZone: string): string {
  return user.hired_at_manual ?? user.hired_at_synced ?? registrationDate(user, timeZone);
}

/**
 * spec: User.last_active_on — a date, never null: a user never seen active (the company and system
 * users, bot users, users made with `POST /users`) reads the registration date. The statistics keep
 * counting only recorded activity.
 */
export function lastActiveOn(user: UserRecord, timeZone: string): string {
  return user.last_active_on ?? registrationDate(user, timeZone);
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
    hired_at: effectiveHiredAt(user, ctx.settings.timezone),
    date_of_birth: user.date_of_birth,
    is_away: user.is_away,
    last_active_on: lastActiveOn(user, ctx.settings.timezone),
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
