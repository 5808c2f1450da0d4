import type { SandboxContext } from '../../context';
import { validationError } from '../../http/sandbox-error';
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
