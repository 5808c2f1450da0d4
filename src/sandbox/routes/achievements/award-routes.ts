import { AwardCreateSchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { createdAfter, readPageQuery } from '../../http/pagination';
import { notFound } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { KIND, type UserRecord } from '../../state/records';
import { newestFirst } from '../content/shared';
import { findAchievement } from './achievement-routes';
import { awardManually } from './awards';
import { requireAchievementsEnabled } from './enabled';
import { ACHIEVEMENT_KIND, type AchievementRecord, type AwardRecord } from './records';
import { serializeAward } from './serialize';

/** spec: Achievements — awards of deleted users are left out of the award list. */
function holderExists(ctx: SandboxContext, award: AwardRecord): boolean {
  const user = ctx.db.get<UserRecord & { id: number }>(KIND.users, award.user_id);
  return user !== undefined && user.deleted_at === null;
}

/** spec: Achievements — 404 for kiosk, bot and shadow users (and for anyone who is not an employee). */
function findHolder(ctx: SandboxContext, rawId: unknown): UserRecord & { id: number } {
  const user = ctx.db.get<UserRecord & { id: number }>(KIND.users, idParam(rawId));
  if (!user || user.kind !== 'default' || user.deleted_at !== null) throw notFound();
  return user;
}

export function registerAwardRoutes(router: ApiRouter, ctx: SandboxContext): void {
  router.route(
    'POST',
    '/achievements/{id}/awards',
    'write:achievements',
    (request) => {
      requireAchievementsEnabled(ctx);
      const achievement = findAchievement(ctx, (request.params as { id: string }).id);
      const { awards } = validate(AwardCreateSchema, request.body);
      const outcome = awardManually(ctx, achievement, awards);
      return { data: outcome.awards.map((w) => serializeAward(ctx, w, { user: true, achievement: true })) };
    },
    { status: 201 },
  );

  // spec: Pagination — "The award lists return `meta` with at least current_page, per_page and total":
  // this list answers `meta` only, without `links`, as the platform may
  router.route('GET', '/achievements/{id}/awards', 'read:achievements', (request) => {
    requireAchievementsEnabled(ctx);
    const achievement = findAchievement(ctx, (request.params as { id: string }).id);
    const page = readPageQuery(request.query as Record<string, unknown>, ctx.settings.timezone);
    const since = page.since;
    const rows = newestFirst(
      ctx.db.filter<AwardRecord>(
        ACHIEVEMENT_KIND.awards,
        (w) => w.achievement_id === achievement.id && holderExists(ctx, w) && (since === undefined || createdAfter(w.created_at, since)),
      ),
    );
    const start = (page.page - 1) * page.perPage;
    return {
      data: rows.slice(start, start + page.perPage).map((w) => serializeAward(ctx, w, { user: true })),
      meta: { current_page: page.page, per_page: page.perPage, total: rows.length },
    };
  });

  // spec: Achievements — not paginated; awards on published achievements only, newest first
  router.route('GET', '/users/{id}/achievements', 'read:achievements', (request) => {
    requireAchievementsEnabled(ctx);
    const user = findHolder(ctx, (request.params as { id: string }).id);
    const rows = ctx.db.filter<AwardRecord>(ACHIEVEMENT_KIND.awards, (w) => {
      if (w.user_id !== user.id) return false;
      return ctx.db.get<AchievementRecord>(ACHIEVEMENT_KIND.achievements, w.achievement_id)?.is_published === true;
    });
    return { data: newestFirst(rows).map((w) => serializeAward(ctx, w, { achievement: true })) };
  });
}
