import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildSandboxApp } from '../../src/sandbox/app';
import { SandboxContext } from '../../src/sandbox/context';
import { SANDBOX_MODULES } from '../../src/sandbox/modules';
import { createCalendarEntry } from '../../src/sandbox/routes/content';
import { SandboxHttpError } from '../../src/sandbox/http/sandbox-error';
import { KIND, type UserRecord } from '../../src/sandbox/state/records';
import { SandboxDb } from '../../src/sandbox/state/sandbox-db';

const auth = { authorization: 'Bearer svc_sandbox_token' };

function build() {
  const clock = new AdjustableClock({ start: Date.UTC(2026, 10, 22, 8), frozen: true });
  const ctx = new SandboxContext(new SandboxDb(), clock);
  const sandbox = buildSandboxApp(ctx, SANDBOX_MODULES);
  sandbox.reset({ seed: 'empty' });
  const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    sandbox.app.inject({ method, url: `/api/open/v1${url}`, headers: auth, ...(payload ? { payload } : {}) });
  return { ...sandbox, ctx, clock, api };
}

const entry = { title: 'Offsite', starts_at: '2026-12-01' };

describe('calendar entries (spec: Calendar entries)', () => {
  let s: ReturnType<typeof build>;
  afterEach(async () => s.app.close());

  async function defaultType(name = 'Default', is_published = true) {
    return (await s.api('POST', '/calendar-event-types', { name, is_published })).json().data as { id: number; name: string };
  }

  it('answers 422 naming calendar_event_type_id when omitted and the company has no "Default" type (spec: Calendar entries; Errors)', async () => {
    s = build();
    const res = await s.api('POST', '/calendar-entries', entry);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation_error', message: expect.stringContaining('calendar_event_type_id') });
  });

  it('does not fall back to an unpublished "Default" type (spec: Calendar entries)', async () => {
    s = build();
    await defaultType('Default', false);
    expect((await s.api('POST', '/calendar-entries', entry)).statusCode).toBe(422);
  });

  it('uses the published "Default" type when calendar_event_type_id is omitted, embedded in the entry (spec: Calendar entries)', async () => {
    s = build();
    await defaultType('Holiday');
    const def = await defaultType();
    const res = await s.api('POST', '/calendar-entries', entry);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ title: 'Offsite', calendar_event_type: { id: def.id, name: 'Default' }, is_published: true, body: null, groups: [] });
    expect(Object.keys(res.json().data.author).sort()).toEqual(['email', 'id', 'name']);
  });

  it('uses a given calendar_event_type_id and refuses an unknown one (spec: Calendar entries)', async () => {
    s = build();
    const holiday = await defaultType('Holiday');
    expect((await s.api('POST', '/calendar-entries', { ...entry, calendar_event_type_id: holiday.id })).json().data.calendar_event_type.name).toBe('Holiday');
    const bad = await s.api('POST', '/calendar-entries', { ...entry, calendar_event_type_id: 77 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('calendar_event_type_id');
  });

  it('filters by status: published by default, drafts with is_published false (spec: Pagination, status)', async () => {
    s = build();
    await defaultType();
    await s.api('POST', '/calendar-entries', { ...entry, title: 'live' });
    await s.api('POST', '/calendar-entries', { ...entry, title: 'draft', is_published: false });
    const titles = async (q: string) => (await s.api('GET', `/calendar-entries${q}`)).json().data.map((e: { title: string }) => e.title);
    expect(await titles('')).toEqual(['live']);
    expect(await titles('?status=draft')).toEqual(['draft']);
    expect(await titles('?status=all')).toEqual(['draft', 'live']);
    expect((await s.api('GET', '/calendar-entries?status=nope')).statusCode).toBe(422);
  });

  it('changes only the sent fields with PUT and PATCH alike (spec: Calendar entries)', async () => {
    s = build();
    await defaultType();
    const e = (await s.api('POST', '/calendar-entries', { ...entry, body: 'Agenda', starts_time: '09:00' })).json().data;
    const put = await s.api('PUT', `/calendar-entries/${e.id}`, { title: 'Renamed' });
    expect(put.json().data).toMatchObject({ title: 'Renamed', body: 'Agenda', starts_time: '09:00' });
    const patch = await s.api('PATCH', `/calendar-entries/${e.id}`, { body: 'New agenda' });
    expect(patch.json().data).toMatchObject({ title: 'Renamed', body: 'New agenda', article_id: e.article_id });
  });

  it('applies the announcements body rule on update (spec: Calendar entries)', async () => {
    s = build();
    await defaultType();
    const article = (await s.api('POST', '/articles', { body: '<p>rich</p>' })).json().data;
    const e = (await s.api('POST', '/calendar-entries', { ...entry, article_id: article.id })).json().data;
    expect(e.body).toBe('<p>rich</p>');
    expect((await s.api('PATCH', `/calendar-entries/${e.id}`, { body: 'plain' })).statusCode).toBe(422);
    expect((await s.api('POST', '/calendar-entries', { ...entry, body: 'x', article_id: article.id })).statusCode).toBe(422);
  });

  it('answers 422 for ends_at before starts_at (spec: Calendar entries, optional as in events)', async () => {
    s = build();
    await defaultType();
    expect((await s.api('POST', '/calendar-entries', { ...entry, ends_at: '2026-11-01' })).statusCode).toBe(422);
  });

  it('gets by id, deletes with 204, then 404 (spec: Calendar entries; Errors)', async () => {
    s = build();
    await defaultType();
    const e = (await s.api('POST', '/calendar-entries', entry)).json().data;
    expect((await s.api('GET', `/calendar-entries/${e.id}`)).json().data.id).toBe(e.id);
    expect((await s.api('DELETE', `/calendar-entries/${e.id}`)).statusCode).toBe(204);
    expect((await s.api('GET', `/calendar-entries/${e.id}`)).statusCode).toBe(404);
  });

  it('createCalendarEntry applies the same rules for the incoming webhook action (spec: Incoming webhooks, calendar_entry)', async () => {
    s = build();
    const admin = s.ctx.db.get<UserRecord & { id: number }>(KIND.users, 1);
    if (!admin) throw new Error('seed has no admin');
    expect(() => createCalendarEntry(s.ctx, entry, admin)).toThrow(SandboxHttpError);
    await defaultType();
    const created = createCalendarEntry(s.ctx, entry, admin);
    expect(created).toMatchObject({ title: 'Offsite', calendar_event_type: { name: 'Default' }, author: { id: admin.id } });
    expect((await s.api('GET', '/calendar-entries')).json().meta.total).toBe(1);
  });

  it('seeds a published "Default" calendar event type (issue: demo seed)', async () => {
    s = build();
    s.reset({ seed: 'demo' });
    const types = (await s.api('GET', '/calendar-event-types')).json().data as { name: string; is_published: boolean }[];
    expect(types.find((t) => t.name === 'Default')?.is_published).toBe(true);
    expect((await s.api('POST', '/calendar-entries', entry)).statusCode).toBe(201);
  });
});
