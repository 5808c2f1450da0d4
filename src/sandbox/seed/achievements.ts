import { z } from 'zod';
import type { SandboxContext } from '../context';
import { createAchievement } from '../routes/achievements/achievement-write';
import { TENURE_CHECKED_KEY } from '../routes/achievements/automatic';
import { ACHIEVEMENT_KIND } from '../routes/achievements/records';
import { KIND, type UserRecord } from '../state/records';
import { contentRefs } from './content';
import { directoryRefs } from './directory-refs';

const Id = z.number().int().positive();

/** What the achievements seed wrote (meta `seed.achievements`), for tests and demos. */
export const AchievementSeedRefsSchema = z.object({
  custom_public_id: Id,
  employee_of_the_month_id: Id,
  draft_id: Id,
  employment_id: Id,
  completion_id: Id.nullable(),
});
export type AchievementSeedRefs = z.infer<typeof AchievementSeedRefsSchema>;

export const ACHIEVEMENT_REFS_KEY = 'seed.achievements';

export function achievementRefs(ctx: SandboxContext): AchievementSeedRefs | undefined {
  const raw = ctx.db.getMeta(ACHIEVEMENT_REFS_KEY);
  return raw === undefined ? undefined : AchievementSeedRefsSchema.parse(raw);
}

/** One employee of the month in their first department, as an admin would have handed it out. */
function seedEmployeeOfTheMonth(ctx: SandboxContext, achievementId: number): void {
  const refs = directoryRefs(ctx);
  const candidate = refs?.employee_ids[0];
  const user = candidate === undefined ? undefined : ctx.db.get<UserRecord & { id: number }>(KIND.users, candidate);
  const department = user?.memberships.find((m) => ctx.db.get<{ id: number; type: string }>(KIND.groups, m.group_id)?.type === 'department');
  if (!user || !department) return;
  const now = ctx.now();
  ctx.db.insert(ACHIEVEMENT_KIND.awards, {
    achievement_id: achievementId,
    user_id: user.id,
    awarded_on: ctx.today(),
    department_id: department.group_id,
    is_manually_added: true,
    assigned_by_id: refs?.company_user_id ?? null,
    created_at: now,
    updated_at: now,
  });
}

/**
 * The demo achievements: a published public custom badge, a published employee of the month, a
 * draft, a published 12-month employment badge (already held by those who qualify; the daily check
 * counts today as done) and a completion badge linked to the published employee handbook.
 */
export function seedAchievements(ctx: SandboxContext): void {
  const content = contentRefs(ctx);
  const custom = createAchievement(
    ctx,
    {
      type: 'custom',
      title: 'Team player',
      description: 'Always there when the team needs a hand.',
      emoji: '🤝',
      visibility: 'public',
      is_published: true,
      translations: { title: { de: 'Teamplayer' } },
    },
    false,
  );
  const eotm = createAchievement(ctx, { type: 'employee_of_the_month', is_published: true }, false);
  const draft = createAchievement(ctx, { type: 'custom', title: 'Innovation award', description: 'For an idea that changed how we work.' }, false);
  const employment = createAchievement(ctx, { type: 'employment', title: 'One year with us', trigger_config: { months: 12 }, is_published: true }, false);
  const completion = content
    ? createAchievement(
        ctx,
        {
          type: 'completion',
          title: 'Handbook hero',
          trigger_config: { completable_type: 'handbook', completable_ids: [content.handbook_id] },
          is_published: true,
        },
        false,
      )
    : undefined;
  seedEmployeeOfTheMonth(ctx, eotm.id);
  ctx.db.setMeta(TENURE_CHECKED_KEY, ctx.today());
  ctx.db.setMeta(ACHIEVEMENT_REFS_KEY, {
    custom_public_id: custom.id,
    employee_of_the_month_id: eotm.id,
    draft_id: draft.id,
    employment_id: employment.id,
    completion_id: completion?.id ?? null,
  } satisfies AchievementSeedRefs);
}
