import { describe, expect, it } from 'vitest';
import { ApiNotFoundError, ApiValidationError } from '../../src/api/errors';
import { dueForPublication, nextPublication } from '../../src/sandbox/routes/content/event-state';
import { failure, START, useHttpSandbox } from './http-harness';

const HOUR = 3_600_000;

const base = { title: 'Party', body: 'Cake', starts_at: '2026-12-01' };

describe('event publication state machine (spec: Event publication state)', () => {
  const draft = { is_published: false, published_at: null, scheduled_at: null };
  const published = { is_published: true, published_at: START - HOUR, scheduled_at: null };
  const scheduled = { is_published: false, published_at: null, scheduled_at: START + HOUR };

  it.each([
    ['create with nothing sent is a draft', undefined, {}, draft],
    ['create with is_published true is published', undefined, { is_published: true }, { is_published: true, published_at: START, scheduled_at: null }],
    ['publish_at wins over is_published', undefined, { is_published: true, publish_at: START + HOUR }, scheduled],
    ['a draft is published by is_published true', draft, { is_published: true }, { is_published: true, published_at: START, scheduled_at: null }],
    ['a published event is unpublished by is_published false', published, { is_published: false }, draft],
    ['a draft is scheduled by a future publish_at', draft, { publish_at: START + HOUR }, scheduled],
    ['publish_at null cancels a pending schedule', scheduled, { publish_at: null }, draft],
    ['a scheduled event is rescheduled by a new publish_at', scheduled, { publish_at: START + 2 * HOUR }, { ...scheduled, scheduled_at: START + 2 * HOUR }],
  ] as const)('%s', (_name, current, input, expected) => {
    expect(nextPublication(current, input, START)).toEqual({ ok: true, state: expected });
  });

  it('refuses scheduling a published event, naming publish_at', () => {
    expect(nextPublication(published, { publish_at: START + HOUR }, START)).toMatchObject({ ok: false, field: 'publish_at' });
  });

  it('refuses a publish_at that is not in the future', () => {
    expect(nextPublication(draft, { publish_at: START }, START)).toMatchObject({ ok: false, field: 'publish_at' });
    expect(nextPublication(undefined, { publish_at: START - 1 }, START)).toMatchObject({ ok: false, field: 'publish_at' });
  });

  it('goes live at the scheduled time, not before', () => {
    expect(dueForPublication(scheduled, START + HOUR - 1)).toBeUndefined();
    expect(dueForPublication(scheduled, START + 2 * HOUR)).toEqual({ is_published: true, published_at: START + HOUR, scheduled_at: null });
    expect(dueForPublication(draft, START + 2 * HOUR)).toBeUndefined();
  });
});

describe('events (spec: Events)', () => {
  const h = useHttpSandbox({ seed: 'empty' });

  it('creates a draft by default with a reduced author (spec: Events; Event.author)', async () => {
    const data = await h.api.events.create(base);
    expect(data).toMatchObject({ title: 'Party', body: 'Cake', is_published: false, published_at: null, scheduled_at: null });
    expect(Object.keys(data.author).sort()).toEqual(['avatar_url', 'email', 'id', 'name']);
    // the status itself, which the client does not surface
    expect((await h.raw('POST', '/events', { body: base })).status).toBe(201);
  });

  it('schedules with a future publish_at even when is_published is true (spec: Event publication state)', async () => {
    const data = await h.api.events.create({ ...base, is_published: true, publish_at: '2026-11-22T12:00:00+01:00' });
    expect(data).toMatchObject({ is_published: false, published_at: null, scheduled_at: '2026-11-22T12:00:00+01:00' });
  });

  it('answers 422 for a publish_at in the past (spec: Event publication state)', async () => {
    const error = await failure(h.api.events.create({ ...base, publish_at: '2026-11-22T08:00:00+01:00' }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'publish_at' });
    expect((await h.api.events.list({ status: 'all' })).meta!.total).toBe(0);
  });

  it('answers 422 for scheduling a published event and leaves it published (spec: Errors, event update)', async () => {
    const e = await h.api.events.create({ ...base, is_published: true });
    const error = await failure(h.api.events.update(e.id, { publish_at: '2026-11-23T09:00:00+01:00', title: 'Other' }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'publish_at' });
    expect(await h.api.events.get(e.id)).toMatchObject({ is_published: true, title: 'Party' });
  });

  it('cancels a schedule with publish_at null (spec: Event publication state)', async () => {
    const e = await h.api.events.create({ ...base, publish_at: '2026-11-22T12:00:00+01:00' });
    expect(await h.api.events.update(e.id, { publish_at: null })).toMatchObject({ is_published: false, scheduled_at: null, published_at: null });
  });

  it('publishes and unpublishes with is_published (spec: Event publication state)', async () => {
    const e = await h.api.events.create(base);
    expect(await h.api.events.update(e.id, { is_published: true })).toMatchObject({ is_published: true, published_at: '2026-11-22T09:00:00+01:00' });
    expect(await h.api.events.update(e.id, { is_published: false })).toMatchObject({ is_published: false, published_at: null });
  });

  it('publishes a scheduled event when the sandbox clock reaches publish_at (spec: Event publication state)', async () => {
    const e = await h.api.events.create({ ...base, publish_at: '2026-11-22T12:00:00+01:00' });
    expect((await h.api.events.list()).data).toHaveLength(0);
    await h.control.advance(2 * 3600);
    expect((await h.api.events.get(e.id)).is_published).toBe(false);
    await h.control.advance(3600);
    expect(await h.api.events.get(e.id)).toMatchObject({ is_published: true, published_at: '2026-11-22T12:00:00+01:00', scheduled_at: null });
    expect((await h.api.events.list()).data.map((x) => x.id)).toEqual([e.id]);
  });

  it('answers 422 for ends_at before starts_at, on create and against the stored start on update (spec: Errors)', async () => {
    // the client refuses the create body itself, so it goes over raw HTTP
    const bad = await h.raw('POST', '/events', { body: { ...base, ends_at: '2026-11-30' } });
    expect(bad.status).toBe(422);
    expect(bad.json<{ message: string }>().message).toContain('ends_at');
    const e = await h.api.events.create(base);
    const error = await failure(h.api.events.update(e.id, { ends_at: '2026-11-30' }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'ends_at' });
    expect((await h.api.events.update(e.id, { ends_at: '2026-12-02' })).ends_at).toBe('2026-12-02');
  });

  it('ends an event sent without ends_at on its start date, following the start when an update moves it (spec: Event.ends_at is a date)', async () => {
    const e = await h.api.events.create(base);
    expect(e).toMatchObject({ starts_at: '2026-12-01', ends_at: '2026-12-01', starts_time: null, ends_time: null });
    // the end was never sent, so moving the start later is no "ends_at before starts_at"
    expect(await h.api.events.update(e.id, { starts_at: '2026-12-05' })).toMatchObject({ starts_at: '2026-12-05', ends_at: '2026-12-05' });
    expect(await h.api.events.update(e.id, { ends_at: '2026-12-06' })).toMatchObject({ ends_at: '2026-12-06' });
    expect(await h.api.events.update(e.id, { ends_at: null })).toMatchObject({ ends_at: '2026-12-05' });
  });

  it('requires body unless article_id, never both (spec: Events, create fields)', async () => {
    const article = await h.api.articles.create({ body: '<p>rich</p>' });
    // the client refuses both create bodies itself, so they go over raw HTTP
    expect((await h.raw('POST', '/events', { body: { title: 'x', starts_at: '2026-12-01' } })).status).toBe(422);
    expect((await h.raw('POST', '/events', { body: { ...base, article_id: article.id } })).status).toBe(422);
    const linked = await h.api.events.create({ title: 'x', starts_at: '2026-12-01', article_id: article.id });
    expect(linked).toMatchObject({ article_id: article.id, body: '<p>rich</p>' });
    const error = await failure(h.api.events.update(linked.id, { body: 'plain' }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ platformMessage: expect.stringContaining('body') });
  });

  it('lists published events by default, drafts and scheduled under status=draft (spec: Pagination, status)', async () => {
    await h.api.events.create({ ...base, title: 'live', is_published: true });
    await h.api.events.create({ ...base, title: 'draft' });
    await h.api.events.create({ ...base, title: 'scheduled', publish_at: '2026-11-23T09:00:00+01:00' });
    const titles = async (status?: 'draft' | 'all') => (await h.api.events.list(status ? { status } : {})).data.map((e) => e.title);
    expect(await titles()).toEqual(['live']);
    expect(await titles('draft')).toEqual(['scheduled', 'draft']);
    expect(await titles('all')).toHaveLength(3);
    // the client's types allow only the spec's statuses, so the unknown one goes over raw HTTP
    expect((await h.raw('GET', '/events?status=live')).status).toBe(422);
  });

  it('returns scheduled and draft events by id and deletes with 204 (spec: Events)', async () => {
    const e = await h.api.events.create({ ...base, publish_at: '2026-11-23T09:00:00+01:00' });
    await expect(h.api.events.get(e.id)).resolves.toMatchObject({ id: e.id });
    const del = await h.raw('DELETE', `/events/${e.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    await expect(h.api.events.get(e.id)).rejects.toBeInstanceOf(ApiNotFoundError);
    const draft = await h.api.events.create(base);
    await expect(h.api.events.delete(draft.id)).resolves.toBeUndefined();
    await expect(h.api.events.get(draft.id)).rejects.toBeInstanceOf(ApiNotFoundError);
  });

  it('seeds a published event and one scheduled for tomorrow (issue: demo seed)', async () => {
    await h.reset('demo');
    const all = (await h.api.events.list({ status: 'all' })).data;
    expect(all.filter((e) => e.is_published)).toHaveLength(1);
    expect(all.find((e) => e.scheduled_at)?.scheduled_at).toBe('2026-11-23T09:00:00+01:00');
  });
});
