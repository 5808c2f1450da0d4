import { describe, expect, it } from 'vitest';
import { PostSchema, UserSchema } from '../../../src/api/schemas';

describe('responses keep unknown fields (spec: Versioning — additive changes ship within v1)', () => {
  it('keeps a field the schema does not know, on the top level and embedded', () => {
    const post = PostSchema.parse({
      id: 1,
      body: 'b',
      wall_id: 2,
      wall_name: 'W',
      author: { id: 3, name: 'Ada', pronouns: 'she' },
      created_at: '2026-05-01T10:00:00+02:00',
      updated_at: '2026-05-01T10:00:00+02:00',
      reactions_count: 4,
    });
    expect(post).toMatchObject({ reactions_count: 4, author: { pronouns: 'she' } });
  });

  it('parses a user with its embedded groups carrying is_manager', () => {
    const user = UserSchema.parse({
      id: 1,
      name: 'Ada L',
      first_name: 'Ada',
      last_name: 'L',
      email: 'a@x.test',
      type: 'default',
      avatar_url: null,
      title: null,
      groups: [{ id: 4, name: 'Eng', type: 'department', is_manager: true }],
      is_manager: false,
      hired_at: '2020-01-01',
      date_of_birth: null,
      is_away: false,
      last_active_on: '2026-05-01',
      registered_at: '2020-01-02T09:00:00+01:00',
      created_at: '2020-01-01T09:00:00+01:00',
    });
    expect(user.groups[0]?.is_manager).toBe(true);
  });
});
