import { describe, expect, expectTypeOf, it } from 'vitest';
import { PAYLOAD_SCHEMAS, safeParsePayload, type PayloadOf } from '../../src/webhooks/payloads';
import { EVENT_NAMES } from '../../src/webhooks/events';

const user = {
  id: 7,
  name: 'Ada Lovelace',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  type: 'default',
  avatar_url: null,
  title: null,
  groups: [{ id: 3, name: 'Engineering', type: 'department', created_at: '2024-01-01T00:00:00+01:00', is_manager: true }],
  is_manager: false,
  hired_at: '2020-03-01',
  date_of_birth: null,
  is_away: false,
  last_active_on: '2026-11-20',
  registered_at: '2020-03-02T09:00:00+01:00',
  created_at: '2020-02-20T09:00:00+01:00',
};

const post = {
  id: 42,
  body: 'Release 1.2 is out',
  wall_id: 3,
  wall_name: 'Engineering',
  author: { id: 7, name: 'Ada Lovelace', email: 'ada@example.com' },
  created_at: '2026-11-20T10:00:00+01:00',
  updated_at: '2026-11-20T10:00:00+01:00',
};

const comment = { id: 9, body: 'Nice', post_id: 42, wall_id: 3, author: user, created_at: post.created_at, updated_at: post.updated_at };

const announcement = {
  id: 5,
  article_id: 11,
  title: 'New policy',
  subtitle: null,
  body: 'Read me',
  author: user,
  groups: [],
  is_published: true,
  is_confirmable: true,
  published_at: post.created_at,
};

const award = {
  id: 100,
  awarded_at: '2026-11-20T00:00:00+01:00',
  is_manually_added: true,
  department: { id: 3, name: 'Engineering', type: 'department' },
  assigned_by: { id: 1, name: 'Acme', type: 'customer' },
  user,
  achievement: { id: 12, title: 'Five years', emoji: '⭐', type: 'employment', visibility: 'public', awarded_users_count: 4, is_published: true },
  created_at: post.created_at,
  updated_at: post.updated_at,
};

describe('event payloads (spec: Events)', () => {
  it('has a schema for every event', () => {
    expect(Object.keys(PAYLOAD_SCHEMAS).sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('parses post.created exactly as the spec lists it and keeps unknown fields', () => {
    const parsed = PAYLOAD_SCHEMAS['post.created'].parse({ ...post, media: [] });
    expect(parsed).toMatchObject(post);
    expect(parsed).toHaveProperty('media', []);
  });

  it.each(['id', 'body', 'wall_id', 'wall_name', 'author', 'created_at', 'updated_at'])('requires post.created %s', (field) => {
    const { [field]: _dropped, ...rest } = post as Record<string, unknown>;
    expect(PAYLOAD_SCHEMAS['post.created'].safeParse(rest).success).toBe(false);
  });

  it('parses comment events with Comment fields, and a reduced deleted comment', () => {
    expect(PAYLOAD_SCHEMAS['comment.created'].parse(comment).author.name).toBe('Ada Lovelace');
    expect(PAYLOAD_SCHEMAS['comment.updated'].safeParse({ id: 9 }).success).toBe(false);
    expect(PAYLOAD_SCHEMAS['comment.deleted'].parse({ id: 9, extra: true })).toEqual({ id: 9, extra: true });
  });

  it('parses achievement.awarded as the Award with achievement and user embedded', () => {
    const parsed = PAYLOAD_SCHEMAS['achievement.awarded'].parse(award);
    expect(parsed.achievement.visibility).toBe('public');
    expect(parsed.user.groups?.[0]?.is_manager).toBe(true);
    expect(PAYLOAD_SCHEMAS['achievement.awarded'].safeParse({ ...award, achievement: undefined }).success).toBe(false);
    expect(PAYLOAD_SCHEMAS['achievement.awarded'].parse({ ...award, assigned_by: null, department: null }).assigned_by).toBeNull();
  });

  it('parses announcement.confirmed with its stable id, employee and announcement', () => {
    const confirmation = { id: 77, employee: user, announcement, confirmed_at: post.created_at };
    expect(PAYLOAD_SCHEMAS['announcement.confirmed'].parse(confirmation).id).toBe(77);
    expect(PAYLOAD_SCHEMAS['announcement.confirmed'].safeParse({ ...confirmation, employee: undefined }).success).toBe(false);
    expect(PAYLOAD_SCHEMAS['announcement.published'].parse(announcement).title).toBe('New policy');
  });

  it('parses onboarding.completed only with onboarding_completed_at', () => {
    expect(PAYLOAD_SCHEMAS['onboarding.completed'].parse({ ...user, onboarding_completed_at: post.created_at }).onboarding_completed_at).toBe(post.created_at);
    expect(PAYLOAD_SCHEMAS['onboarding.completed'].safeParse(user).success).toBe(false);
  });

  it('parses user.registered as a User and keeps fields it does not know', () => {
    expect(PAYLOAD_SCHEMAS['user.registered'].parse({ ...user, locale: 'de' })).toMatchObject({ id: 7, locale: 'de' });
  });

  it('parses form response events loosely, with deleted_at on updates and a null comment author', () => {
    expect(PAYLOAD_SCHEMAS['formresponse.created'].parse({ id: 1, form_id: 4, answers: [] })).toHaveProperty('answers');
    expect(PAYLOAD_SCHEMAS['formresponse.updated'].parse({ id: 1, deleted_at: post.created_at }).deleted_at).toBe(post.created_at);
    expect(PAYLOAD_SCHEMAS['formresponse.updated'].parse({ id: 1, deleted_at: null }).deleted_at).toBeNull();
    expect(PAYLOAD_SCHEMAS['formresponse.comment.created'].parse({ id: 2, body: 'hi', author: null }).author).toBeNull();
    expect(PAYLOAD_SCHEMAS['formresponse.alarm_triggered'].parse({ anything: 1 })).toEqual({ anything: 1 });
  });

  it('parses the ping test payload', () => {
    expect(PAYLOAD_SCHEMAS.test.parse({})).toEqual({});
  });

  it('reports a bad payload through safeParsePayload without throwing', () => {
    const result = safeParsePayload('post.created', { ...post, wall_id: 'three' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['wall_id']);
  });

  it('types a payload by its event name', () => {
    expectTypeOf<PayloadOf<'post.created'>['wall_id']>().toEqualTypeOf<number>();
    expectTypeOf<PayloadOf<'achievement.awarded'>['achievement']['visibility']>().toEqualTypeOf<'public' | 'personal'>();
    expectTypeOf<PayloadOf<'formresponse.updated'>['deleted_at']>().toEqualTypeOf<string | null | undefined>();
  });
});
