import { describe, expect, it } from 'vitest';
import type { Caller, CallInput } from '../../../src/api/caller';
import { ApiNotFoundError } from '../../../src/api/errors';
import type { Achievement } from '../../../src/api/schemas/achievement';
import type { AnyEndpoint } from '../../../src/api/schemas/endpoint';
import { AwardConfigSchema, awardRows, checkAwardable, chooseAchievement } from '../../../src/bots/helpers/award-achievement';

function achievement(id: number, fields: Partial<Achievement> = {}): Achievement {
  return {
    id,
    title: `Badge ${id}`,
    description: null,
    translations: { title: {}, description: {} },
    emoji: '🤩',
    type: 'custom',
    visibility: 'public',
    trigger_type: null,
    trigger_config: null,
    awarded_users_count: 0,
    is_published: true,
    published_at: '2026-01-01T00:00:00+01:00',
    created_at: '2026-01-01T00:00:00+01:00',
    updated_at: '2026-01-01T00:00:00+01:00',
    ...fields,
  };
}

/** The achievements endpoints in memory, newest first (spec: Achievements). */
function platform(achievements: Achievement[]): Caller & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async call<E extends AnyEndpoint>(endpoint: E, input?: CallInput<E>): Promise<never> {
      calls.push(endpoint.id);
      const id = Number((input?.params as Record<string, unknown> | undefined)?.id);
      const found = achievements.find((a) => a.id === id);
      if (!found) throw new ApiNotFoundError({ method: 'GET', path: `/achievements/${id}`, status: 404 });
      return found as never;
    },
    async *paginate(endpoint: AnyEndpoint): AsyncIterable<never> {
      calls.push(endpoint.id);
      for (const a of achievements) yield a as never;
    },
  };
}

describe('checkAwardable', () => {
  it('accepts a published custom achievement', () => {
    expect(checkAwardable(achievement(1))).toMatchObject({ ok: true });
  });

  it('refuses an employment achievement, saying the platform awards those itself', () => {
    const result = checkAwardable(achievement(2, { type: 'employment', trigger_type: 'tenure', trigger_config: { months: 12 } }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/employment achievement: the platform awards those itself/);
  });

  it('refuses the other automatic and special types', () => {
    expect(checkAwardable(achievement(3, { type: 'completion' })).ok).toBe(false);
    expect(checkAwardable(achievement(4, { type: 'employee_of_the_month' })).ok).toBe(false);
  });

  it('refuses a draft (spec: Award rules 1: published achievements only)', () => {
    const result = checkAwardable(achievement(5, { is_published: false }));
    expect(!result.ok && result.reason).toMatch(/draft/);
  });
});

describe('chooseAchievement', () => {
  it('chooses nothing when the config names no achievement, without asking the platform', async () => {
    const api = platform([]);
    expect(await chooseAchievement(api, AwardConfigSchema.parse({ achievement_id: '', achievement_title: '' }))).toBeUndefined();
    expect(api.calls).toEqual([]);
  });

  it('finds a title case-insensitively, preferring the published custom one over a draft of the same title', async () => {
    const api = platform([achievement(9, { title: 'Loyal colleague', is_published: false }), achievement(8, { title: 'Loyal Colleague' })]);
    const choice = await chooseAchievement(api, AwardConfigSchema.parse({ achievement_title: 'loyal colleague' }));
    expect(choice).toMatchObject({ ok: true, achievement: { id: 8 } });
  });

  it('reports an id the platform does not know', async () => {
    const choice = await chooseAchievement(platform([]), AwardConfigSchema.parse({ achievement_id: '42' }));
    expect(choice).toEqual({ ok: false, reason: 'no achievement with id 42 exists' });
  });

  it('refuses an employment achievement found by id', async () => {
    const choice = await chooseAchievement(platform([achievement(3, { type: 'employment' })]), AwardConfigSchema.parse({ achievement_id: 3 }));
    expect(choice?.ok).toBe(false);
  });
});

describe('awardRows', () => {
  const groups = {
    '1': { name: 'Engineering', type: 'department' },
    '2': { name: 'Sales', type: 'department' },
    '3': { name: 'Engineer', type: 'profession' },
  };

  it('gives the department when the user has exactly one, and leaves it out otherwise', () => {
    const rows = awardRows(
      [
        { id: 10, group_ids: [1, 3] },
        { id: 11, group_ids: [1, 2] },
        { id: 12, group_ids: [3] },
      ],
      '2026-06-10',
      groups,
    );
    expect(rows).toEqual([
      { user_id: 10, awarded_at: '2026-06-10', department_id: 1 },
      { user_id: 11, awarded_at: '2026-06-10' },
      { user_id: 12, awarded_at: '2026-06-10' },
    ]);
  });
});

describe('AwardConfigSchema', () => {
  it('names the field of a bad id', () => {
    const result = AwardConfigSchema.safeParse({ achievement_id: 'seven' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['achievement_id']);
  });
});
