import { describe, expect, it } from 'vitest';
import { AchievementCreateSchema, AchievementUpdateSchema } from '../../../src/api/schemas';
import { issues } from './issues';

describe('achievement bodies (spec: Achievements, Create body; Limits)', () => {
  it('accepts an emoji of 16 characters and refuses 17', () => {
    expect(issues(AchievementCreateSchema, { type: 'custom', title: 'T', emoji: '🎉'.repeat(16) })).toEqual([]);
    expect(issues(AchievementCreateSchema, { type: 'custom', title: 'T', emoji: '🎉'.repeat(17) })[0]?.path).toBe('emoji');
  });

  it('counts code points, not UTF-16 units: 16 astral emoji are 32 units but 16 characters', () => {
    expect('🎉'.repeat(16).length).toBe(32);
    expect(issues(AchievementCreateSchema, { type: 'custom', title: 'T', emoji: '🎉'.repeat(16) })).toEqual([]);
  });

  it('counts a family emoji by its code points (7), so two of them plus two more fit in 16 but not three', () => {
    const family = '👨‍👩‍👧‍👦';
    expect([...family].length).toBe(7);
    expect(issues(AchievementCreateSchema, { type: 'custom', title: 'T', emoji: `${family}${family}🎉🎉` })).toEqual([]);
    expect(issues(AchievementCreateSchema, { type: 'custom', title: 'T', emoji: family.repeat(3) })[0]?.path).toBe('emoji');
  });

  it('refuses trigger_config on a custom achievement', () => {
    expect(issues(AchievementCreateSchema, { type: 'custom', title: 'T', trigger_config: { months: 3 } })[0]?.path).toBe('trigger_config');
    expect(issues(AchievementCreateSchema, { type: 'employee_of_the_month', trigger_config: { months: 3 } })[0]?.path).toBe('trigger_config');
  });

  it('refuses employment months 0, naming trigger_config.months', () => {
    expect(issues(AchievementCreateSchema, { type: 'employment', title: 'T', trigger_config: { months: 0 } })[0]?.path).toBe('trigger_config.months');
    expect(issues(AchievementCreateSchema, { type: 'employment', title: 'T', trigger_config: { months: 1 } })).toEqual([]);
  });

  it('refuses an incomplete completion config and one of the wrong shape for the type', () => {
    expect(
      issues(AchievementCreateSchema, { type: 'completion', title: 'T', trigger_config: { completable_type: 'course', completable_ids: [] } })[0]?.path,
    ).toBe('trigger_config.completable_ids');
    expect(issues(AchievementCreateSchema, { type: 'completion', title: 'T', trigger_config: { months: 2 } })[0]?.path).toMatch(/^trigger_config/);
    expect(issues(AchievementCreateSchema, { type: 'completion', title: 'T', trigger_config: { completable_type: 'journey', completable_ids: [4] } })).toEqual(
      [],
    );
  });

  it('requires a title except for employee_of_the_month', () => {
    expect(issues(AchievementCreateSchema, { type: 'custom' })[0]?.path).toBe('title');
    expect(issues(AchievementCreateSchema, { type: 'employee_of_the_month' })).toEqual([]);
  });

  it('on update without type, accepts a config of either automatic shape and clearing it with null', () => {
    expect(issues(AchievementUpdateSchema, { trigger_config: { months: 12 } })).toEqual([]);
    expect(issues(AchievementUpdateSchema, { trigger_config: null })).toEqual([]);
    expect(issues(AchievementUpdateSchema, { trigger_config: { weeks: 3 } })[0]?.path).toMatch(/^trigger_config/);
  });
});
