import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../../context';
import { notFound, validationError } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { serializeUser } from '../../serialize/user';
import { KIND, UserKindSchema, type UserRecord } from '../../state/records';

type StoredUser = UserRecord & { id: number };

const UsersQuerySchema = z.object({
  kind: UserKindSchema.optional(),
  status: z.enum(['registered', 'pending', 'deactivated']).optional(),
});

/** Every user as tests see them: the User plus what the API hides (kind, status, external id, deletion). */
function controlUser(ctx: SandboxContext, user: StoredUser): Record<string, unknown> {
  return {
    ...serializeUser(ctx, user),
    kind: user.kind,
    status: user.status,
    external_id: user.external_id,
    hired_at_synced: user.hired_at_synced,
    hired_at_manual: user.hired_at_manual,
    deleted_at: ctx.isoOrNull(user.deleted_at),
    onboarding_completed_at: ctx.isoOrNull(user.onboarding_completed_at),
  };
}

function userOf(ctx: SandboxContext, id: unknown): StoredUser {
  const user = ctx.db.get<StoredUser>(KIND.users, idParam(id));
  if (!user || user.deleted_at !== null) throw notFound();
  return user;
}

/** Employee actions of the directory (DESIGN.md control API): registration, onboarding, and read-back of every user. */
export function registerDirectoryControl(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/_sandbox/users', async (request) => {
    const query = validate(UsersQuerySchema, request.query);
    const users = ctx.db.filter<StoredUser>(KIND.users, (u) => (!query.kind || u.kind === query.kind) && (!query.status || u.status === query.status));
    return { data: users.map((u) => controlUser(ctx, u)) };
  });

  // a pending user accepts the invite (spec: Events, service.user.registered)
  app.post('/_sandbox/users/:id/register', async (request) => {
    const user = userOf(ctx, (request.params as { id?: string }).id);
    if (user.status !== 'pending') throw validationError('id', `user ${user.id} is ${user.status}, not a pending invitation`);
    const now = ctx.now();
    const registered = ctx.db.update<StoredUser>(KIND.users, user.id, { status: 'registered', registered_at: now, last_active_on: ctx.today() }) as StoredUser;
    const payload = serializeUser(ctx, registered);
    ctx.events.emit({ event: 'user.registered', payload });
    return { data: controlUser(ctx, registered) };
  });

  // spec: Events, service.onboarding.completed — the payload carries onboarding_completed_at
  app.post('/_sandbox/users/:id/onboarding', async (request) => {
    const user = userOf(ctx, (request.params as { id?: string }).id);
    if (user.status !== 'registered') throw validationError('id', `user ${user.id} has not registered`);
    if (user.onboarding_completed_at !== null) throw validationError('id', `user ${user.id} already completed onboarding`);
    const done = ctx.db.update<StoredUser>(KIND.users, user.id, { onboarding_completed_at: ctx.now() }) as StoredUser;
    ctx.events.emit({
      event: 'onboarding.completed',
      payload: { id: done.id, user: serializeUser(ctx, done), onboarding_completed_at: ctx.iso(ctx.now()) },
    });
    return { data: controlUser(ctx, done) };
  });
}
