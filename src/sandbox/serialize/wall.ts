import type { SandboxContext } from '../context';
import { KIND, type GroupRecord, type WallRecord } from '../state/records';
import { embeddedGroup, isVisibleGroup } from './group';

/** spec: Wall — `{ id, name, groups, created_at }`, the groups the wall is scoped to. */
export function serializeWall(ctx: SandboxContext, wall: WallRecord): Record<string, unknown> {
  const groups = wall.group_ids
    .map((id) => ctx.db.get<GroupRecord & { id: number }>(KIND.groups, id))
    .filter(isVisibleGroup)
    .map((g) => embeddedGroup(ctx, g));
  return { id: wall.id, name: wall.name, groups, created_at: ctx.iso(wall.created_at) };
}
