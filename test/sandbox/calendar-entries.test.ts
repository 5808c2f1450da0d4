import { describe, expect, it } from 'vitest';
import { ApiNotFoundError, ApiValidationError } from '../../src/api/errors';
import { createCalendarEntry } from '../../src/sandbox/routes/content';
import { SandboxHttpError } from '../../src/sandbox/http/sandbox-error';
import { KIND, type UserRecord } from '../../src/sandbox/state/records';
import { failure, useHttpSandbox } from './http-harness';

const entry = { title: 'Offsite', starts_at: '2026-12-01' };

describe('calendar entries (spec: Calendar entries)', () => {
  const h = useHttpSandbox({ seed: 'empty' });

  async function defaultType(name = 'Default', is_published = true) {
    return h.api.calendarEventTypes.create({ name, is_published });
  }

  it('answers 422 naming calendar_event_type_id when omitted and the company has no "Default" type (spec: Calendar entries; Errors)', async () => {
    const error = await failure(h.api.calendarEntries.create(entry));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'calendar_event_type_id' });
  });

  it('does not fall back to an unpublished "Default" type (spec: Calendar entries)', async () => {
    await defaultType('Default', false);
    await expect(h.api.calendarEntries.create(entry)).rejects.toBeInstanceOf(ApiValidationError);
  });

  it('uses the published "Default" type when calendar_event_type_id is omitted, embedded in the entry (spec: Calendar entries)', async () => {
    await defaultType('Holiday');
    const def = await defaultType();
    const data = await h.api.calendarEntries.create(entry);
    expect(data).toMatchObject({ title: 'Offsite', calendar_event_type: { id: def.id, name: 'Default' }, is_published: true, body: null, groups: [] });
    expect(Object.keys(data.author).sort()).toEqual(['email', 'id', 'name']);
    // without is_published on the wire (the client fills in its default): the platform publishes too
    const res = await h.raw('POST', '/calendar-entries', { body: entry });
    expect(res.status).toBe(201);
    expect(res.json()).toMatchObject({ data: { is_published: true, calendar_event_type: { id: def.id } } });
  });

  it('uses a given calendar_event_type_id and refuses an unknown one (spec: Calendar entries)', async () => {
    const holiday = await defaultType('Holiday');
    expect((await h.api.calendarEntries.create({ ...entry, calendar_event_type_id: holiday.id })).calendar_event_type?.name).toBe('Holiday');
    const error = await failure(h.api.calendarEntries.create({ ...entry, calendar_event_type_id: 77 }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'calendar_event_type_id' });
  });

  it('filters by status: published by default, drafts with is_published false (spec: Pagination, status)', async () => {
    await defaultType();
    await h.api.calendarEntries.create({ ...entry, title: 'live' });
    await h.api.calendarEntries.create({ ...entry, title: 'draft', is_published: false });
    const titles = async (status?: 'draft' | 'all') => (await h.api.calendarEntries.list(status ? { status } : {})).data.map((e) => e.title);
    expect(await titles()).toEqual(['live']);
    expect(await titles('draft')).toEqual(['draft']);
    expect(await titles('all')).toEqual(['draft', 'live']);
    // the client's types allow only the spec's statuses, so the unknown one goes over raw HTTP
    expect((await h.raw('GET', '/calendar-entries?status=nope')).status).toBe(422);
  });

  it('changes only the sent fields with PUT and PATCH alike (spec: Calendar entries)', async () => {
    await defaultType();
    const e = await h.api.calendarEntries.create({ ...entry, body: 'Agenda', starts_time: '09:00' });
    expect(await h.api.calendarEntries.update(e.id, { title: 'Renamed' })).toMatchObject({ title: 'Renamed', body: 'Agenda', starts_time: '09:00' });
    expect(await h.api.calendarEntries.patch(e.id, { body: 'New agenda' })).toMatchObject({ title: 'Renamed', body: 'New agenda', article_id: e.article_id });
  });

  it('applies the announcements body rule on update (spec: Calendar entries)', async () => {
    await defaultType();
    const article = await h.api.articles.create({ body: '<p>rich</p>' });
    const e = await h.api.calendarEntries.create({ ...entry, article_id: article.id });
    expect(e.body).toBe('<p>rich</p>');
    const error = await failure(h.api.calendarEntries.patch(e.id, { body: 'plain' }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ platformMessage: expect.stringContaining('body') });
    // body with article_id in one request: refused by the client before sending, so raw HTTP
    expect((await h.raw('POST', '/calendar-entries', { body: { ...entry, body: 'x', article_id: article.id } })).status).toBe(422);
  });

  it('reads an entry sent without times as all-day, 00:00 to 23:59, ending on its start date (spec: Calendar entry, dates and times)', async () => {
    await defaultType();
    const allDay = await h.api.calendarEntries.create(entry);
    expect(allDay).toMatchObject({ starts_at: '2026-12-01', ends_at: '2026-12-01', starts_time: '00:00', ends_time: '23:59' });
    expect(await h.api.calendarEntries.update(allDay.id, { starts_at: '2026-12-03' })).toMatchObject({ starts_at: '2026-12-03', ends_at: '2026-12-03' });
    // each time not sent is the day's edge: from 09:00 to the end of the day, from the start of the day to 17:00
    expect(await h.api.calendarEntries.create({ ...entry, starts_time: '09:00' })).toMatchObject({ starts_time: '09:00', ends_time: '23:59' });
    expect(await h.api.calendarEntries.create({ ...entry, ends_at: '2026-12-02', ends_time: '17:00' })).toMatchObject({
      ends_at: '2026-12-02',
      starts_time: '00:00',
      ends_time: '17:00',
    });
  });

  it('gives an entry without a description an article of its own, with body null (spec: Calendar entry, article_id is an integer)', async () => {
    await defaultType();
    const bare = await h.api.calendarEntries.create(entry);
    expect(bare.body).toBeNull();
    expect(bare.article_id).toEqual(expect.any(Number));
    expect(await h.api.articles.get(bare.article_id as number)).toMatchObject({ id: bare.article_id, body: null });
    // the article was made for the entry, not built as rich content: a body may fill it later
    expect(await h.api.calendarEntries.update(bare.id, { body: 'Agenda' })).toMatchObject({ article_id: bare.article_id, body: 'Agenda' });
  });

  it('answers 422 for ends_at before starts_at (spec: Calendar entries, optional as in events)', async () => {
    await defaultType();
    // refused by the client before sending, so raw HTTP
    const res = await h.raw('POST', '/calendar-entries', { body: { ...entry, ends_at: '2026-11-01' } });
    expect(res.status).toBe(422);
    expect(res.json<{ message: string }>().message).toContain('ends_at');
  });

  it('gets by id, deletes with 204, then 404 (spec: Calendar entries; Errors)', async () => {
    await defaultType();
    const e = await h.api.calendarEntries.create(entry);
    expect((await h.api.calendarEntries.get(e.id)).id).toBe(e.id);
    await expect(h.api.calendarEntries.delete(e.id)).resolves.toBeUndefined();
    await expect(h.api.calendarEntries.get(e.id)).rejects.toBeInstanceOf(ApiNotFoundError);
    const other = await h.api.calendarEntries.create(entry);
    const del = await h.raw('DELETE', `/calendar-entries/${other.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
  });

  it('createCalendarEntry applies the same rules for the incoming webhook action (spec: Incoming webhooks, calendar_entry)', async () => {
    // a function of the sandbox, called in process; what it made is read over HTTP
    const ctx = h.sandbox.ctx;
    const admin = ctx.db.get<UserRecord & { id: number }>(KIND.users, 1);
    if (!admin) throw new Error('seed has no admin');
    expect(() => createCalendarEntry(ctx, entry, admin)).toThrow(SandboxHttpError);
    await defaultType();
    const created = createCalendarEntry(ctx, entry, admin);
    expect(created).toMatchObject({ title: 'Offsite', calendar_event_type: { name: 'Default' }, author: { id: admin.id } });
    expect((await h.api.calendarEntries.list()).meta!.total).toBe(1);
  });

  it('seeds a published "Default" calendar event type (issue: demo seed)', async () => {
    await h.reset('demo');
    const types = (await h.api.calendarEventTypes.list()).data;
    expect(types.find((t) => t.name === 'Default')?.is_published).toBe(true);
    await expect(h.api.calendarEntries.create(entry)).resolves.toMatchObject({ calendar_event_type: { name: 'Default' } });
  });
});
