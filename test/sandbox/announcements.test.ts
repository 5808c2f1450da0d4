import { describe, expect, it } from 'vitest';
import { ApiNotFoundError, ApiValidationError } from '../../src/api/errors';
import { PAYLOAD_SCHEMAS } from '../../src/webhooks';
import { failure, useHttpSandbox, type HttpSandbox } from './http-harness';

/** Groups and users made through the API, so each test names the directory it needs. */
function directory(h: HttpSandbox) {
  return {
    group: (name: string) => h.api.groups.create({ name, type: 'department' }),
    user: (first: string, groups: number[] = []) => h.api.users.create({ first_name: first, last_name: 'Test', email: `${first}@x.example`, groups }),
  };
}

describe('announcements (spec: Announcements)', () => {
  const h = useHttpSandbox({ seed: 'empty' });
  const { group } = directory(h);

  it('creates a published announcement by default and fires announcement.published (spec: Announcements, Events)', async () => {
    const data = await h.api.announcements.create({ title: 'Hello', body: 'World' });
    expect(data).toMatchObject({
      title: 'Hello',
      body: 'World',
      is_published: true,
      groups: [],
      is_confirmable: false,
      published_at: '2026-11-22T09:00:00+01:00',
    });
    expect(h.events.map((e) => e.event)).toEqual(['announcement.published']);
    expect(h.events[0]?.payload).toMatchObject({ id: data.id, title: 'Hello' });
    expect(PAYLOAD_SCHEMAS['announcement.published'].safeParse(h.events[0]?.payload).success).toBe(true);
    // the status itself, which the client does not surface
    expect((await h.raw('POST', '/announcements', { body: { title: 'Again', body: 'World' } })).status).toBe(201);
  });

  it('creates a draft with is_published false and fires nothing until it is published (spec: Announcements)', async () => {
    const draft = await h.api.announcements.create({ title: 'Later', body: 'b', is_published: false });
    expect(draft).toMatchObject({ is_published: false, published_at: null });
    expect(h.events).toHaveLength(0);
    expect(await h.api.announcements.update(draft.id, { is_published: true })).toMatchObject({ is_published: true, title: 'Later', body: 'b' });
    expect(h.events.map((e) => e.event)).toEqual(['announcement.published']);
  });

  it('starts an announcement on the day it is published, a draft on the day it was made (spec: Announcement.starts_at is a date)', async () => {
    const live = await h.api.announcements.create({ title: 'Now', body: 'b' });
    expect(live.starts_at).toBe('2026-11-22');
    const draft = await h.api.announcements.create({ title: 'Later', body: 'b', is_published: false });
    expect(draft.starts_at).toBe('2026-11-22');
    await h.control.advance(3 * 86_400);
    expect((await h.api.announcements.update(draft.id, { is_published: true })).starts_at).toBe('2026-11-25');
    expect((await h.api.announcements.get(live.id)).starts_at).toBe('2026-11-22');
    expect(h.events.map((e) => e.payload.starts_at)).toEqual(['2026-11-22', '2026-11-25']);
  });

  it('requires title, and body unless article_id is given (spec: Announcements, create body)', async () => {
    // the client refuses both bodies before sending, so they go over raw HTTP
    const noTitle = await h.raw('POST', '/announcements', { body: { body: 'x' } });
    expect(noTitle.status).toBe(422);
    expect(noTitle.json()).toMatchObject({ error: 'validation_error', message: expect.stringContaining('title') });
    const noBody = await h.raw('POST', '/announcements', { body: { title: 'x' } });
    expect(noBody.status).toBe(422);
    expect(noBody.json<{ message: string }>().message).toContain('body');
    expect((await h.api.announcements.list({ status: 'all' })).meta!.total).toBe(0);
  });

  it('answers 422 for body together with article_id (spec: Errors)', async () => {
    const article = await h.api.articles.create({ title: 'A', body: '<p>rich</p>' });
    // the client refuses this body before sending, so raw HTTP
    const res = await h.raw('POST', '/announcements', { body: { title: 'x', body: 'y', article_id: article.id } });
    expect(res.status).toBe(422);
    expect(res.json<{ message: string }>().message).toContain('article_id');
  });

  it('answers 422 naming article_id when the article does not exist (spec: Announcements, create body)', async () => {
    const error = await failure(h.api.announcements.create({ title: 'x', article_id: 99 }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'article_id' });
  });

  it('links a pre-built article and shows its content as the body (spec: Announcements, article_id)', async () => {
    const article = await h.api.articles.create({ title: 'A', body: '<p>rich</p>' });
    expect(await h.api.announcements.create({ title: 'x', article_id: article.id })).toMatchObject({ article_id: article.id, body: '<p>rich</p>' });
  });

  it('refuses body on update where it would replace rich article content (spec: Announcements, update)', async () => {
    const article = await h.api.articles.create({ body: '<p>rich</p>' });
    const a = await h.api.announcements.create({ title: 'x', article_id: article.id });
    const error = await failure(h.api.announcements.update(a.id, { body: 'plain', title: 'changed' }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ platformMessage: expect.stringContaining('body') });
    expect(await h.api.announcements.get(a.id)).toMatchObject({ title: 'x', body: '<p>rich</p>' });
  });

  it('updates body when the article was built from body itself (spec: Announcements, update)', async () => {
    const a = await h.api.announcements.create({ title: 'x', body: 'one' });
    expect(await h.api.announcements.update(a.id, { body: 'two' })).toMatchObject({ body: 'two', title: 'x', article_id: a.article_id });
  });

  it('changes only the sent fields on update (spec: Announcements, PUT)', async () => {
    const g = await group('Sales');
    const a = await h.api.announcements.create({ title: 'x', body: 'b', subtitle: 'sub', groups: [g.id] });
    expect(await h.api.announcements.update(a.id, { title: 'y' })).toMatchObject({
      title: 'y',
      body: 'b',
      subtitle: 'sub',
      groups: [{ id: g.id, name: 'Sales', type: 'department' }],
    });
  });

  it('answers 422 naming the group for an unknown group id (spec: Announcement.groups)', async () => {
    const error = await failure(h.api.announcements.create({ title: 'x', body: 'b', groups: [42] }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'groups.0' });
  });

  it('lists published announcements by default and filters by status (spec: Pagination, status)', async () => {
    await h.api.announcements.create({ title: 'live', body: 'b' });
    await h.api.announcements.create({ title: 'draft', body: 'b', is_published: false });
    const titles = async (status?: 'draft' | 'all') => (await h.api.announcements.list(status ? { status } : {})).data.map((a) => a.title);
    expect(await titles()).toEqual(['live']);
    expect(await titles('draft')).toEqual(['draft']);
    expect(await titles('all')).toEqual(['draft', 'live']);
    // the client's types allow only the spec's statuses, so the unknown one goes over raw HTTP
    const bad = await h.raw('GET', '/announcements?status=scheduled');
    expect(bad.status).toBe(422);
    expect(bad.json<{ message: string }>().message).toContain('status');
  });

  it('returns a draft on GET by id and 404 with no body for an unknown id (spec: Pagination; Errors)', async () => {
    const draft = await h.api.announcements.create({ title: 'draft', body: 'b', is_published: false });
    await expect(h.api.announcements.get(draft.id)).resolves.toMatchObject({ id: draft.id, is_published: false });
    await expect(h.api.announcements.get(999)).rejects.toBeInstanceOf(ApiNotFoundError);
    const missing = await h.raw('GET', '/announcements/999');
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('');
  });

  it('deletes with 204 and an empty body (spec: Errors)', async () => {
    const a = await h.api.announcements.create({ title: 'x', body: 'b' });
    const res = await h.raw('DELETE', `/announcements/${a.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    await expect(h.api.announcements.get(a.id)).rejects.toBeInstanceOf(ApiNotFoundError);
    const b = await h.api.announcements.create({ title: 'y', body: 'b' });
    await expect(h.api.announcements.delete(b.id)).resolves.toBeUndefined();
    await expect(h.api.announcements.get(b.id)).rejects.toBeInstanceOf(ApiNotFoundError);
  });

  it('cannot create a confirmable announcement through the API (spec: Announcements, create body)', async () => {
    // the client's schema has no is_confirmable, so raw HTTP
    const res = await h.raw('POST', '/announcements', { body: { title: 'x', body: 'b', is_confirmable: true } });
    expect(res.status).toBe(422);
    expect(res.json<{ message: string }>().message).toContain('is_confirmable');
  });
});

describe('announcement confirmations (spec: Events, announcement.confirmed)', () => {
  const h = useHttpSandbox({ seed: 'empty' });
  const { group, user } = directory(h);

  async function confirmable(groups: number[] = []): Promise<{ id: number; is_confirmable: boolean }> {
    const made = (await h.control.send('POST', '/announcements', { title: 'Policy', body: 'Read me', groups, is_confirmable: true })) as {
      data: { id: number; is_confirmable: boolean };
    };
    return made.data;
  }

  /** Confirms as an employee through the control API; its status is part of what is checked. */
  const confirm = (announcementId: number, userId: number) =>
    h.raw('POST', `/_sandbox/announcements/${announcementId}/confirm`, { body: { user_id: userId }, token: null });

  it('fires announcement.confirmed exactly once per employee, the confirmation id stable (spec: Events)', async () => {
    const ada = await user('ada');
    const a = await confirmable();
    h.events.length = 0;
    const first = await confirm(a.id, ada.id);
    expect(first.status).toBe(201);
    const second = await confirm(a.id, ada.id);
    expect(second.status).toBe(200);
    const firstId = first.json<{ data: { id: number } }>().data.id;
    expect(second.json<{ data: { id: number } }>().data.id).toBe(firstId);
    expect(h.events.map((e) => e.event)).toEqual(['announcement.confirmed']);
    expect(h.events[0]?.payload).toMatchObject({ id: firstId, employee: { id: ada.id }, announcement: { id: a.id, title: 'Policy' } });
    expect(PAYLOAD_SCHEMAS['announcement.confirmed'].safeParse(h.events[0]?.payload).success).toBe(true);
    expect((await h.api.announcements.get(a.id)).confirmations_count).toBe(1);
  });

  it('refuses to confirm an announcement that is not confirmable (spec: Events, announcement.confirmed)', async () => {
    const ada = await user('ada');
    const a = await h.api.announcements.create({ title: 'x', body: 'b' });
    expect((await confirm(a.id, ada.id)).status).toBe(422);
    expect(h.events.filter((e) => e.event === 'announcement.confirmed')).toHaveLength(0);
  });

  it('refuses to confirm an unpublished announcement (spec: Events, announcement.confirmed)', async () => {
    const ada = await user('ada');
    const a = await confirmable();
    await h.api.announcements.update(a.id, { is_published: false });
    expect((await confirm(a.id, ada.id)).status).toBe(422);
  });

  it('accepts confirmations only from employees the announcement targets (spec: Announcement.groups)', async () => {
    const eng = await group('Engineering');
    const inside = await user('ada', [eng.id]);
    const outside = await user('bob');
    const a = await confirmable([eng.id]);
    expect((await confirm(a.id, outside.id)).status).toBe(422);
    expect((await confirm(a.id, inside.id)).status).toBe(201);
  });

  it('lists confirmations per announcement and all confirmations newest first with since (spec: Announcements)', async () => {
    const [ada, bob] = [await user('ada'), await user('bob')];
    const a = await confirmable();
    await h.control.send('POST', `/announcements/${a.id}/confirm`, { user_id: ada.id });
    await h.control.advance(60);
    await h.control.send('POST', `/announcements/${a.id}/confirm`, { user_id: bob.id });
    const ids = (list: { data: { user: { id: number } }[] }) => list.data.map((c) => c.user.id);
    expect(ids(await h.api.confirmations.list())).toEqual([bob.id, ada.id]);
    expect(ids(await h.api.confirmations.list({ since: '2026-11-22T09:00:30+01:00' }))).toEqual([bob.id]);
    expect((await h.api.announcements.confirmations(a.id)).meta!.total).toBe(2);
    await expect(h.api.announcements.confirmations(999)).rejects.toBeInstanceOf(ApiNotFoundError);
  });

  it('seeds a published confirmable announcement targeted at a department (DESIGN.md: demo seed)', async () => {
    await h.reset('demo');
    const seeded = (await h.api.announcements.list()).data.find((a) => a.is_confirmable);
    expect(seeded).toMatchObject({ is_published: true });
    expect(seeded?.groups[0]?.type).toBe('department');
  });
});
