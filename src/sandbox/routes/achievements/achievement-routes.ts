import { AchievementListQuerySchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { paginate, readPageQuery } from '../../http/pagination';
import { notFound } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { newestFirst } from '../content/shared';
import { createAchievement, updateAchievement } from './achievement-write';
import { requireAchievementsEnabled } from './enabled';
import { ACHIEVEMENT_KIND, type AchievementRecord } from './records';
import { serializeAchievement } from './serialize';

const FiltersSchema = AchievementListQuerySchema.pick({ is_published: true, type: true, visibility: true });

export function findAchievement(ctx: SandboxContext, rawId: unknown): AchievementRecord {
  const found = ctx.db.get<AchievementRecord>(ACHIEVEMENT_KIND.achievements, idParam(rawId));
  if (!found) throw notFound();
  return found;
}

/** spec: Achievements — list (newest first, drafts included), get, create, PATCH or PUT; no delete. */
export function registerAchievementRoutes(router: ApiRouter, ctx: SandboxContext): void {
  router.route('GET', '/achievements', 'read:achievements', (request) => {
    requireAchievementsEnabled(ctx);
    const query = request.query as Record<string, unknown>;
    const filters = validate(FiltersSchema, query);
    const page = readPageQuery(query, ctx.settings.timezone);
    const rows = ctx.db.filter<AchievementRecord>(
      ACHIEVEMENT_KIND.achievements,
      (a) =>
        (filters.is_published === undefined || a.is_published === filters.is_published) &&
        (filters.type === undefined || a.type === filters.type) &&
        (filters.visibility === undefined || a.visibility === filters.visibility),
    );
    return paginate(request, newestFirst(rows), page, (a) => serializeAchievement(ctx, a));
  });

  router.route('GET', '/achievements/{id}', 'read:achievements', (request) => {
    requireAchievementsEnabled(ctx);
    return { data: serializeAchievement(ctx, findAchievement(ctx, (request.params as { id: string }).id)) };
  });

  router.route(
    'POST',
    '/achievements',
    'write:achievements',
    (request) => {
      requireAchievementsEnabled(ctx);
      return { data: serializeAchievement(ctx, createAchievement(ctx, request.body)) };
    },
    { status: 201 },
  );

  // spec: Achievements — PATCH and PUT are equivalent
  router.route(['PATCH', 'PUT'], '/achievements/{id}', 'write:achievements', (request) => {
    requireAchievementsEnabled(ctx);
    const current = findAchievement(ctx, (request.params as { id: string }).id);
    return { data: serializeAchievement(ctx, updateAchievement(ctx, current, request.body)) };
  });
}
