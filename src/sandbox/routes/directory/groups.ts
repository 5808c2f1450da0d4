import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { GroupCreateSchema, GroupTypeSchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { paginate, readPageQuery } from '../../http/pagination';
import { notFound } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { isVisibleGroup, managersByGroup, serializeGroup } from '../../serialize/group';
import { KIND, type GroupRecord } from '../../state/records';

type StoredGroup = GroupRecord & { id: number };
const TypeQuerySchema = z.object({ type: GroupTypeSchema.optional() });

/** spec: Groups (read:groups) and POST /groups (write:groups, Other endpoints that exist). */
export function registerGroupRoutes(router: ApiRouter, ctx: SandboxContext): void {
  router.route('GET', '/groups', 'read:groups', (request) => listGroups(ctx, request));
  router.route('GET', '/groups/{id}', 'read:groups', (request) => {
    const group = ctx.db.get<StoredGroup>(KIND.groups, idParam((request.params as { id?: string }).id));
    // spec: Group — system groups are never returned: to the API they do not exist
    if (!isVisibleGroup(group)) throw notFound();
    return { data: serializeGroup(ctx, group, managersByGroup(ctx)) };
  });
  router.route('POST', '/groups', 'write:groups', (request) => ({ data: createGroup(ctx, request.body) }), { status: 201 });
}

function listGroups(ctx: SandboxContext, request: FastifyRequest): unknown {
  const query = request.query as Record<string, unknown>;
  const page = readPageQuery(query, ctx.settings.timezone);
  // spec: Groups — `type` is department, profession or custom; anything else (system too) is a 422
  const { type } = validate(TypeQuerySchema, { type: query.type });
  const rows = ctx.db.filter<StoredGroup>(KIND.groups, (g) => isVisibleGroup(g) && (type === undefined || g.type === type));
  const managers = managersByGroup(ctx);
  return paginate(request, rows, page, (g) => serializeGroup(ctx, g, managers));
}

/** spec: Other endpoints that exist — `type` defaults to department; `is_open` only valid on custom (422). */
function createGroup(ctx: SandboxContext, body: unknown): Record<string, unknown> {
  const input = validate(GroupCreateSchema, body);
  const group = ctx.db.insert(KIND.groups, {
    name: input.name,
    type: input.type,
    is_open: input.type === 'custom' ? (input.is_open ?? false) : null,
    created_at: ctx.now(),
  });
  return serializeGroup(ctx, group, new Map());
}
