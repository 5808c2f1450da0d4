import type { FastifyRequest } from 'fastify';
import { AvatarUploadSchema, UserCreateSchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { readForm } from '../../http/forms';
import { paginate, readPageQuery } from '../../http/pagination';
import { notFound, validationError } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { newUser } from '../../seed/base';
import { findUser, isListedUser, serializeUser } from '../../serialize/user';
import { KIND, type GroupRecord, type UserRecord } from '../../state/records';
import { storeUpload } from '../posts/media-store';

type StoredUser = UserRecord & { id: number };

/** spec: Users (read:users) and the user writes of "Other endpoints that exist" (write:users). */
export function registerUserRoutes(router: ApiRouter, ctx: SandboxContext): void {
  router.route('GET', '/users', 'read:users', (request) => listUsers(ctx, request));
  router.route('GET', '/users/{id}', 'read:users', (request) => ({ data: serializeUser(ctx, listedUser(ctx, request)) }));
  router.route('POST', '/users', 'write:users', (request) => ({ data: serializeUser(ctx, createUser(ctx, request.body)) }), { status: 201 });
  router.route('DELETE', '/users/{id}', 'write:users', (request) => deleteUser(ctx, request), { status: 204 });
  router.route('POST', '/users/{id}/avatar', 'write:users', async (request) => ({ data: serializeUser(ctx, await setAvatar(ctx, request)) }));
}

function listUsers(ctx: SandboxContext, request: FastifyRequest): unknown {
  const query = request.query as Record<string, unknown>;
  const page = readPageQuery(query, ctx.settings.timezone);
  const groupId = readGroupId(query.group_id);
  // spec: Users — only registered users; pending invitations and deactivated accounts are omitted.
  // Worked out once until the next write, not once a page: a directory of 10,000 is read in 200 pages
  const rows = ctx.db.derived(`users:listed:${groupId ?? 'all'}`, () =>
    ctx.db.filter<StoredUser>(KIND.users, (u) => isListedUser(u) && (groupId === undefined || u.memberships.some((m) => m.group_id === groupId))),
  );
  return paginate(request, rows, page, (u) => serializeUser(ctx, u));
}

function readGroupId(value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw validationError('group_id', 'must be an integer group id');
  return n;
}

/** A user the users endpoints can show; anyone else (pending, deactivated, deleted, bots) is a 404. */
function listedUser(ctx: SandboxContext, request: FastifyRequest): StoredUser {
  const user = findUser(ctx, idParam((request.params as { id?: string }).id)) as StoredUser | undefined;
  if (!user || !isListedUser(user)) throw notFound();
  return user;
}

/**
 * POST /users (spec: not shown; DESIGN.md's body). Our choice: the user is created registered. The
 * API creates accounts for an external system (HR, SSO) that has already vetted the person, and a
 * pending user would be a response that no endpoint can read back (GET /users/{id} shows registered
 * users only). The email must not be held by an active (registered or pending) user: 422 naming `email`.
 */
function createUser(ctx: SandboxContext, body: unknown): StoredUser {
  const input = validate(UserCreateSchema, body);
  const email = input.email.toLowerCase();
  const taken = ctx.db.find<StoredUser>(KIND.users, (u) => u.deleted_at === null && u.status !== 'deactivated' && u.email.toLowerCase() === email);
  if (taken) throw validationError('email', 'the email address is already taken by an active user');
  const groupIds = input.groups ?? [];
  groupIds.forEach((id, index) => {
    const group = ctx.db.get<GroupRecord & { id: number }>(KIND.groups, id);
    if (!group || group.type === 'system') throw validationError(`groups.${index}`, `group ${id} does not exist`);
  });
  return ctx.db.insert(
    KIND.users,
    newUser(ctx, {
      first_name: input.first_name,
      last_name: input.last_name,
      email: input.email,
      title: input.title ?? null,
      hired_at_manual: input.hired_at ?? null,
      date_of_birth: input.date_of_birth ?? null,
      memberships: groupIds.map((group_id) => ({ group_id, is_manager: false })),
      last_active_on: null,
    }),
  );
}

/** DELETE /users/{id}: 204; a user synced from an external system cannot be deleted (spec: Errors, 422 list). */
function deleteUser(ctx: SandboxContext, request: FastifyRequest): undefined {
  const user = findUser(ctx, idParam((request.params as { id?: string }).id)) as StoredUser | undefined;
  const deletable = user && user.deleted_at === null && (user.kind === 'default' || user.kind === 'kiosk' || user.kind === 'shadow');
  if (!user || !deletable) throw notFound();
  if (user.external_id !== null) throw validationError('id', 'the user is synced from an external system and cannot be deleted');
  // kept as a record with `deleted_at`: other areas leave out what belongs to deleted users (awards)
  ctx.db.update<StoredUser>(KIND.users, user.id, { deleted_at: ctx.now() });
  return undefined;
}

/** POST /users/{id}/avatar: multipart field `media`, an image; answers the User with the new avatar_url. */
async function setAvatar(ctx: SandboxContext, request: FastifyRequest): Promise<StoredUser> {
  const user = listedUser(ctx, request);
  const form = await readForm(request);
  const input = validate(AvatarUploadSchema, { media: form.get('media') ?? undefined });
  const file = input.media as Blob;
  if (!file.type.startsWith('image/')) throw validationError('media', 'the avatar must be an image');
  const media = await storeUpload(ctx, request, file, 'image');
  return ctx.db.update<StoredUser>(KIND.users, user.id, { avatar_url: media.url }) as StoredUser;
}
