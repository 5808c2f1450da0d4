import { describe, expect, it } from 'vitest';
import { AnnouncementSchema, CalendarEntrySchema, EventSchema, PostSchema, UserSchema } from '../../../src/api/schemas';

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

/**
 * The spec types these fields without "or null", but a platform has answered null for them (the
 * sandbox did too, before it filled them in as the platform does): the client accepts both, so a
 * host that answers null breaks no bot (issue #12).
 */
describe('responses tolerate null in date and time fields a platform has sent as null', () => {
  const at = '2026-05-01T10:00:00+02:00';
  const author = { id: 3, name: 'Ada', email: 'a@x.test', avatar_url: null };

  it.each([
    [
      'User.hired_at and last_active_on',
      UserSchema,
      {
        id: 1,
        name: 'A',
        first_name: 'A',
        last_name: 'L',
        email: 'a@x.test',
        type: 'kiosk',
        avatar_url: null,
        title: null,
        groups: [],
        is_manager: false,
        hired_at: null,
        date_of_birth: null,
        is_away: false,
        last_active_on: null,
        registered_at: at,
        created_at: at,
      },
    ],
    [
      'Announcement.starts_at',
      AnnouncementSchema,
      {
        id: 1,
        article_id: 2,
        title: 'T',
        subtitle: null,
        body: 'B',
        author,
        groups: [],
        is_published: false,
        is_commentable: true,
        is_confirmable: false,
        is_pinned: false,
        comments_count: 0,
        completions_count: 0,
        confirmations_count: 0,
        starts_at: null,
        published_at: null,
        created_at: at,
        updated_at: at,
      },
    ],
    [
      'Event.ends_at',
      EventSchema,
      {
        id: 1,
        article_id: 2,
        title: 'T',
        body: 'B',
        starts_at: '2026-05-02',
        starts_time: null,
        ends_at: null,
        ends_time: null,
        location: null,
        author,
        groups: [],
        is_published: false,
        comments_count: 0,
        completions_count: 0,
        published_at: null,
        scheduled_at: null,
        created_at: at,
        updated_at: at,
      },
    ],
    [
      'Calendar entry dates, times and article_id',
      CalendarEntrySchema,
      {
        id: 1,
        title: 'T',
        body: null,
        starts_at: '2026-05-02',
        ends_at: null,
        starts_time: null,
        ends_time: null,
        author,
        groups: [],
        calendar_event_type: { id: 1, name: 'Default' },
        article_id: null,
        created_at: at,
        updated_at: at,
      },
    ],
  ] as const)('accepts %s as null', (_name, schema, value) => {
    expect(schema.safeParse(value).success).toBe(true);
  });
});
