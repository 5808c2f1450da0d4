import { describe, expect, it } from 'vitest';
import { AwardCreateSchema } from '../../../src/api/schemas';
import { issues, failingField } from './issues';

describe('award bodies (spec: Achievements, award request body)', () => {
  it('names the failing row as awards.<index>.<field>', () => {
    const body = { awards: [{ user_id: 1, awarded_at: '2026-05-01' }, { awarded_at: '2026-05-01' }] };
    expect(failingField(AwardCreateSchema, body)).toBe('body.awards.1.user_id');
    expect(
      issues(AwardCreateSchema, {
        awards: [
          { user_id: 1, awarded_at: '2026-05-01' },
          { user_id: 2, awarded_at: 'May' },
        ],
      })[0]?.path,
    ).toBe('awards.1.awarded_at');
  });

  it('requires at least one row', () => {
    expect(issues(AwardCreateSchema, { awards: [] })[0]?.path).toBe('awards');
  });

  it('drops a time sent along with awarded_at, keeping the day as written', () => {
    const parsed = AwardCreateSchema.parse({ awards: [{ user_id: 1, awarded_at: '2026-05-01T23:30:00+02:00', department_id: 5 }] });
    expect(parsed.awards[0]).toEqual({ user_id: 1, awarded_at: '2026-05-01', department_id: 5 });
  });
});
