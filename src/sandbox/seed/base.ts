import type { SandboxContext } from '../context';
import { ALL_SCOPES, KIND, SANDBOX_TOKEN, type UserRecord } from '../state/records';

type NewUser = Omit<UserRecord, 'id'>;

/** A user record with the defaults every seeded user shares. */
export function newUser(ctx: SandboxContext, fields: Partial<NewUser> & Pick<NewUser, 'first_name' | 'last_name' | 'email'>): NewUser {
  const now = ctx.now();
  return {
    kind: 'default',
    status: 'registered',
    name: `${fields.first_name} ${fields.last_name}`.trim(),
    title: null,
    avatar_url: null,
    memberships: [],
    is_manager: false,
    hired_at_synced: null,
    hired_at_manual: null,
    date_of_birth: null,
    is_away: false,
    last_active_on: ctx.today(),
    registered_at: now,
    created_at: now,
    external_id: null,
    deleted_at: null,
    onboarding_completed_at: null,
    ...fields,
  };
}

/**
 * What every seed has, even `empty`: the admin who owns the seeded token, the company's own user
 * (`type: customer`, spec: Award.assigned_by), the system user, and the token `svc_sandbox_token`
 * with every scope (DESIGN.md).
 */
export function seedBase(ctx: SandboxContext): void {
  const admin = ctx.db.insert(
    KIND.users,
    newUser(ctx, { first_name: 'Sandra', last_name: 'Admin', email: 'admin@sandbox.example', title: 'Intranet administrator' }),
  );
  ctx.db.insert(
    KIND.users,
    newUser(ctx, { kind: 'customer', first_name: 'Sandbox', last_name: 'GmbH', name: 'Sandbox GmbH', email: 'company@sandbox.example', last_active_on: null }),
  );
  ctx.db.insert(
    KIND.users,
    newUser(ctx, { kind: 'system', first_name: 'System', last_name: '', name: 'System', email: 'system@sandbox.example', last_active_on: null }),
  );
  ctx.db.insert(KIND.tokens, {
    name: 'sandbox',
    token: SANDBOX_TOKEN,
    scopes: [...ALL_SCOPES],
    expires_at: null,
    ip: null,
    attribution: 'creator',
    user_id: admin.id,
    active: true,
    created_at: ctx.now(),
  });
}
