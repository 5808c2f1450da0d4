import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { readPageQuery, readStatus, paginate } from '../../http/pagination';
import { notFound, validationError } from '../../http/sandbox-error';
import { idParam } from '../../http/validate';
import { KIND, type GroupRecord, type UserRecord } from '../../state/records';

/** Group ids sent with content must name existing groups the API can see (system groups are hidden). */
export function checkGroupIds(ctx: SandboxContext, ids: readonly number[] | undefined): void {
  ids?.forEach((id, index) => {
    const group = ctx.db.get<GroupRecord>(KIND.groups, id);
    if (!group || group.type === 'system') throw validationError(`groups.${index}`, `group ${id} does not exist`);
  });
}

/** Groups embedded in content (spec: Group — no `managers` where embedded). */
export function embedGroups(ctx: SandboxContext, ids: readonly number[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const id of ids) {
    const group = ctx.db.get<GroupRecord>(KIND.groups, id);
    if (group && group.type !== 'system') out.push({ id: group.id, name: group.name, type: group.type, created_at: ctx.iso(group.created_at) });
  }
  return out;
}

/** The author as a reduced user; a deleted author keeps its id with a placeholder name. */
export function embedAuthor(ctx: SandboxContext, userId: number, fields: readonly ('email' | 'avatar_url')[]): Record<string, unknown> {
  const user = ctx.db.get<UserRecord & { id: number }>(KIND.users, userId);
  const out: Record<string, unknown> = { id: userId, name: user?.name ?? 'Deleted user' };
  for (const field of fields) out[field] = user ? user[field] : null;
  return out;
}

/** spec: Pagination — `status` published (live only), draft (unpublished, scheduled included) or all. */
export function matchesStatus(isPublished: boolean, status: 'published' | 'draft' | 'all'): boolean {
  return status === 'all' || (status === 'published') === isPublished;
}

/** Newest first: by creation time, then by id (several rows share a millisecond under a frozen clock). */
export function newestFirst<T extends { id: number; created_at: number }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => b.created_at - a.created_at || b.id - a.id);
}

/** A record of `kind` by a path id, or the spec's 404 (spec: Endpoints — unknown ids give 404). */
export function findOr404<T extends { id: number }>(ctx: SandboxContext, kind: string, rawId: unknown): T {
  const found = ctx.db.get<T & { id: number }>(kind, idParam(rawId));
  if (!found) throw notFound();
  return found;
}

type Publishable = { id: number; created_at: number; is_published: boolean };

/**
 * `GET <path>` with the `status` filter, newest first, paginated, and `GET <path>/{id}` in any state
 * (spec: Pagination — "Single-item GETs return the item regardless of state"): the shape announcements,
 * events and calendar entries share.
 */
export function registerStatusListAndGet<T extends Publishable>(
  router: ApiRouter,
  ctx: SandboxContext,
  route: { path: string; scope: string; kind: string; serialize: (row: T) => unknown },
): void {
  router.route('GET', route.path, route.scope, (request) => {
    const query = request.query as Record<string, unknown>;
    const status = readStatus(query);
    const page = readPageQuery(query, ctx.settings.timezone);
    const rows = newestFirst(ctx.db.filter<T & { id: number }>(route.kind, (row) => matchesStatus(row.is_published, status)));
    return paginate(request, rows, page, route.serialize);
  });
  router.route('GET', `${route.path}/{id}`, route.scope, (request) => ({
    data: route.serialize(findOr404<T>(ctx, route.kind, (request.params as { id: string }).id)),
  }));
}
