import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildSandboxApp } from '../../src/sandbox/app';
import { SandboxContext } from '../../src/sandbox/context';
import { SANDBOX_MODULES } from '../../src/sandbox/modules';
import { dueForPublication, nextPublication } from '../../src/sandbox/routes/content/event-state';
import { SandboxDb } from '../../src/sandbox/state/sandbox-db';

const auth = { authorization: 'Bearer svc_sandbox_token' };
const START = Date.UTC(2026, 10, 22, 8); // 09:00 in Berlin
const HOUR = 3_600_000;

function build() {
  const clock = new AdjustableClock({ start: START, frozen: true });
  const ctx = new SandboxContext(new SandboxDb(), clock);
  const sandbox = buildSandboxApp(ctx, SANDBOX_MODULES);
  sandbox.reset({ seed: 'empty' });
  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    sandbox.app.inject({ method, url: `/api/open/v1${url}`, headers: auth, ...(payload ? { payload } : {}) });
  return { ...sandbox, ctx, clock, api };
}

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
  let s: ReturnType<typeof build>;
  afterEach(async () => s.app.close());

  it('creates a draft by default with a reduced author (spec: Events; Event.author)', async () => {
    s = build();
    const res = await s.api('POST', '/events', base);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ title: 'Party', body: 'Cake', is_published: false, published_at: null, scheduled_at: null });
    expect(Object.keys(data.author).sort()).toEqual(['avatar_url', 'email', 'id', 'name']);
  });

  it('schedules with a future publish_at even when is_published is true (spec: Event publication state)', async () => {
    s = build();
    const res = await s.api('POST', '/events', { ...base, is_published: true, publish_at: '2026-11-22T12:00:00+01:00' });
    expect(res.json().data).toMatchObject({ is_published: false, published_at: null, scheduled_at: '2026-11-22T12:00:00+01:00' });
  });

  it('answers 422 for a publish_at in the past (spec: Event publication state)', async () => {
    s = build();
    const res = await s.api('POST', '/events', { ...base, publish_at: '2026-11-22T08:00:00+01:00' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('publish_at');
    expect((await s.api('GET', '/events?status=all')).json().meta.total).toBe(0);
  });

  it('answers 422 for scheduling a published event and leaves it published (spec: Errors, event update)', async () => {
    s = build();
    const e = (await s.api('POST', '/events', { ...base, is_published: true })).json().data;
    const res = await s.api('PUT', `/events/${e.id}`, { publish_at: '2026-11-23T09:00:00+01:00', title: 'Other' });
    expect(res.statusCode).toBe(422);
    expect((await s.api('GET', `/events/${e.id}`)).json().data).toMatchObject({ is_published: true, title: 'Party' });
  });

  it('cancels a schedule with publish_at null (spec: Event publication state)', async () => {
    s = build();
    const e = (await s.api('POST', '/events', { ...base, publish_at: '2026-11-22T12:00:00+01:00' })).json().data;
    const res = await s.api('PUT', `/events/${e.id}`, { publish_at: null });
    expect(res.json().data).toMatchObject({ is_published: false, scheduled_at: null, published_at: null });
  });

  it('publishes and unpublishes with is_published (spec: Event publication state)', async () => {
    s = build();
    const e = (await s.api('POST', '/events', base)).json().data;
    expect((await s.api('PUT', `/events/${e.id}`, { is_published: true })).json().data).toMatchObject({ is_published: true, published_at: '2026-11-22T09:00:00+01:00' });
    expect((await s.api('PUT', `/events/${e.id}`, { is_published: false })).json().data).toMatchObject({ is_published: false, published_at: null });
  });

  it('publishes a scheduled event when the sandbox clock reaches publish_at (spec: Event publication state)', async () => {
    s = build();
    const e = (await s.api('POST', '/events', { ...base, publish_at: '2026-11-22T12:00:00+01:00' })).json().data;
    expect((await s.api('GET', '/events')).json().data).toHaveLength(0);
    await s.app.inject({ method: 'POST', url: '/_sandbox/clock', payload: { advance_seconds: 2 * 3600 } });
    expect((await s.api('GET', `/events/${e.id}`)).json().data.is_published).toBe(false);
    await s.app.inject({ method: 'POST', url: '/_sandbox/clock', payload: { advance_seconds: 3600 } });
    const live = (await s.api('GET', `/events/${e.id}`)).json().data;
    expect(live).toMatchObject({ is_published: true, published_at: '2026-11-22T12:00:00+01:00', scheduled_at: null });
    expect((await s.api('GET', '/events')).json().data.map((x: { id: number }) => x.id)).toEqual([e.id]);
  });

  it('answers 422 for ends_at before starts_at, on create and against the stored start on update (spec: Errors)', async () => {
    s = build();
    const bad = await s.api('POST', '/events', { ...base, ends_at: '2026-11-30' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('ends_at');
    const e = (await s.api('POST', '/events', base)).json().data;
    expect((await s.api('PUT', `/events/${e.id}`, { ends_at: '2026-11-30' })).statusCode).toBe(422);
    expect((await s.api('PUT', `/events/${e.id}`, { ends_at: '2026-12-02' })).json().data.ends_at).toBe('2026-12-02');
  });

  it('requires body unless article_id, never both (spec: Events, create fields)', async () => {
    s = build();
    const article = (await s.api('POST', '/articles', { body: '<p>rich</p>' })).json().data;
    expect((await s.api('POST', '/events', { title: 'x', starts_at: '2026-12-01' })).statusCode).toBe(422);
    expect((await s.api('POST', '/events', { ...base, article_id: article.id })).statusCode).toBe(422);
    const linked = await s.api('POST', '/events', { title: 'x', starts_at: '2026-12-01', article_id: article.id });
    expect(linked.json().data).toMatchObject({ article_id: article.id, body: '<p>rich</p>' });
    const replace = await s.api('PUT', `/events/${linked.json().data.id}`, { body: 'plain' });
    expect(replace.statusCode).toBe(422);
    expect(replace.json().message).toContain('body');
  });

  it('lists published events by default, drafts and scheduled under status=draft (spec: Pagination, status)', async () => {
    s = build();
    await s.api('POST', '/events', { ...base, title: 'live', is_published: true });
    await s.api('POST', '/events', { ...base, title: 'draft' });
    await s.api('POST', '/events', { ...base, title: 'scheduled', publish_at: '2026-11-23T09:00:00+01:00' });
    const titles = async (q: string) => (await s.api('GET', `/events${q}`)).json().data.map((e: { title: string }) => e.title);
    expect(await titles('')).toEqual(['live']);
    expect(await titles('?status=draft')).toEqual(['scheduled', 'draft']);
    expect(await titles('?status=all')).toHaveLength(3);
    expect((await s.api('GET', '/events?status=live')).statusCode).toBe(422);
  });

  it('returns scheduled and draft events by id and deletes with 204 (spec: Events)', async () => {
    s = build();
    const e = (await s.api('POST', '/events', { ...base, publish_at: '2026-11-23T09:00:00+01:00' })).json().data;
    expect((await s.api('GET', `/events/${e.id}`)).statusCode).toBe(200);
    expect((await s.api('DELETE', `/events/${e.id}`)).statusCode).toBe(204);
    expect((await s.api('GET', `/events/${e.id}`)).statusCode).toBe(404);
  });

  it('seeds a published event and one scheduled for tomorrow (issue: demo seed)', async () => {
    s = build();
    s.reset({ seed: 'demo' });
    const all = (await s.api('GET', '/events?status=all')).json().data as { is_published: boolean; scheduled_at: string | null }[];
    expect(all.filter((e) => e.is_published)).toHaveLength(1);
    expect(all.find((e) => e.scheduled_at)?.scheduled_at).toBe('2026-11-23T09:00:00+01:00');
  });
});
