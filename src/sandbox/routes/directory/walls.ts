import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { paginate, readPageQuery } from '../../http/pagination';
import { notFound } from '../../http/sandbox-error';
import { idParam } from '../../http/validate';
import { serializeWall } from '../../serialize/wall';
import { KIND, type WallRecord } from '../../state/records';

type StoredWall = WallRecord & { id: number };

/** spec: Walls (read:walls). Walls are read-only through the API: there are no write routes. */
export function registerWallRoutes(router: ApiRouter, ctx: SandboxContext): void {
  router.route('GET', '/walls', 'read:walls', (request) => {
    const page = readPageQuery(request.query as Record<string, unknown>, ctx.settings.timezone);
    return paginate(request, ctx.db.all<StoredWall>(KIND.walls), page, (w) => serializeWall(ctx, w));
  });
  router.route('GET', '/walls/{id}', 'read:walls', (request) => {
    const wall = ctx.db.get<StoredWall>(KIND.walls, idParam((request.params as { id?: string }).id));
    if (!wall) throw notFound();
    return { data: serializeWall(ctx, wall) };
  });
}
