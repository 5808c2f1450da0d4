import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildSandboxApp } from '../../src/sandbox/app';
import { SandboxContext } from '../../src/sandbox/context';
import type { PlatformEvent } from '../../src/sandbox/events';
import { SANDBOX_MODULES } from '../../src/sandbox/modules';
import { newUser } from '../../src/sandbox/seed/base';
import { KIND } from '../../src/sandbox/state/records';
import { SandboxDb } from '../../src/sandbox/state/sandbox-db';
import { PAYLOAD_SCHEMAS } from '../../src/webhooks';

const auth = { authorization: 'Bearer svc_sandbox_token' };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function build() {
  const clock = new AdjustableClock({ start: Date.UTC(2026, 10, 22, 8), frozen: true });
  const ctx = new SandboxContext(new SandboxDb(), clock);
  const sandbox = buildSandboxApp(ctx, SANDBOX_MODULES);
  sandbox.reset({ seed: 'empty' });
  const events: PlatformEvent[] = [];
  ctx.events.on((e) => events.push(e));
  const api = (method: Method, url: string, payload?: object) => sandbox.app.inject({ method, url: `/api/open/v1${url}`, headers: auth, ...(payload ? { payload } : {}) });
  const control = (url: string, payload: object) => sandbox.app.inject({ method: 'POST', url: `/_sandbox${url}`, payload });
  const group = (name: string) => ctx.db.insert(KIND.groups, { name, type: 'department', is_open: null, created_at: ctx.now() });
  const user = (first: string, groupIds: number[] = [], fields: object = {}) =>
    ctx.db.insert(KIND.users, newUser(ctx, { first_name: first, last_name: 'Test', email: `${first}@x.example`, memberships: groupIds.map((group_id) => ({ group_id, is_manager: false })), ...fields }));
  return { ...sandbox, ctx, clock, events, api, control, group, user };
}

describe('announcements (spec: Announcements)', () => {
  let s: ReturnType<typeof build>;
  afterEach(async () => s.app.close());

  it('creates a published announcement by default and fires announcement.published (spec: Announcements, Events)', async () => {
    s = build();
    const res = await s.api('POST', '/announcements', { title: 'Hello', body: 'World' });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ title: 'Hello', body: 'World', is_published: true, groups: [], is_confirmable: false, published_at: '2026-11-22T09:00:00+01:00' });
    expect(s.events.map((e) => e.event)).toEqual(['announcement.published']);
    expect(s.events[0]?.payload).toMatchObject({ id: data.id, title: 'Hello' });
    expect(PAYLOAD_SCHEMAS['announcement.published'].safeParse(s.events[0]?.payload).success).toBe(true);
  });

  it('creates a draft with is_published false and fires nothing until it is published (spec: Announcements)', async () => {
    s = build();
    const draft = (await s.api('POST', '/announcements', { title: 'Later', body: 'b', is_published: false })).json().data;
    expect(draft).toMatchObject({ is_published: false, published_at: null });
    expect(s.events).toHaveLength(0);
    const published = await s.api('PUT', `/announcements/${draft.id}`, { is_published: true });
    expect(published.json().data).toMatchObject({ is_published: true, title: 'Later', body: 'b' });
    expect(s.events.map((e) => e.event)).toEqual(['announcement.published']);
  });

  it('requires title, and body unless article_id is given (spec: Announcements, create body)', async () => {
    s = build();
    const noTitle = await s.api('POST', '/announcements', { body: 'x' });
    expect(noTitle.statusCode).toBe(422);
    expect(noTitle.json()).toMatchObject({ error: 'validation_error', message: expect.stringContaining('title') });
    const noBody = await s.api('POST', '/announcements', { title: 'x' });
    expect(noBody.statusCode).toBe(422);
    expect(noBody.json().message).toContain('body');
    expect((await s.api('GET', '/announcements?status=all')).json().meta.total).toBe(0);
  });

  it('answers 422 for body together with article_id (spec: Errors)', async () => {
    s = build();
    const article = (await s.api('POST', '/articles', { title: 'A', body: '<p>rich</p>' })).json().data;
    const res = await s.api('POST', '/announcements', { title: 'x', body: 'y', article_id: article.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('article_id');
  });

  it('answers 422 naming article_id when the article does not exist (spec: Announcements, create body)', async () => {
    s = build();
    const res = await s.api('POST', '/announcements', { title: 'x', article_id: 99 });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('article_id');
  });

  it('links a pre-built article and shows its content as the body (spec: Announcements, article_id)', async () => {
    s = build();
    const article = (await s.api('POST', '/articles', { title: 'A', body: '<p>rich</p>' })).json().data;
    const res = await s.api('POST', '/announcements', { title: 'x', article_id: article.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ article_id: article.id, body: '<p>rich</p>' });
  });

  it('refuses body on update where it would replace rich article content (spec: Announcements, update)', async () => {
    s = build();
    const article = (await s.api('POST', '/articles', { body: '<p>rich</p>' })).json().data;
    const a = (await s.api('POST', '/announcements', { title: 'x', article_id: article.id })).json().data;
    const res = await s.api('PUT', `/announcements/${a.id}`, { body: 'plain', title: 'changed' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('body');
    expect((await s.api('GET', `/announcements/${a.id}`)).json().data).toMatchObject({ title: 'x', body: '<p>rich</p>' });
  });

  it('updates body when the article was built from body itself (spec: Announcements, update)', async () => {
    s = build();
    const a = (await s.api('POST', '/announcements', { title: 'x', body: 'one' })).json().data;
    const res = await s.api('PUT', `/announcements/${a.id}`, { body: 'two' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ body: 'two', title: 'x', article_id: a.article_id });
  });

  it('changes only the sent fields on update (spec: Announcements, PUT)', async () => {
    s = build();
    const g = s.group('Sales');
    const a = (await s.api('POST', '/announcements', { title: 'x', body: 'b', subtitle: 'sub', groups: [g.id] })).json().data;
    const res = await s.api('PUT', `/announcements/${a.id}`, { title: 'y' });
    expect(res.json().data).toMatchObject({ title: 'y', body: 'b', subtitle: 'sub', groups: [{ id: g.id, name: 'Sales', type: 'department' }] });
  });

  it('answers 422 naming the group for an unknown group id (spec: Announcement.groups)', async () => {
    s = build();
    const res = await s.api('POST', '/announcements', { title: 'x', body: 'b', groups: [42] });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('groups.0');
  });

  it('lists published announcements by default and filters by status (spec: Pagination, status)', async () => {
    s = build();
    await s.api('POST', '/announcements', { title: 'live', body: 'b' });
    await s.api('POST', '/announcements', { title: 'draft', body: 'b', is_published: false });
    const titles = async (q: string) => (await s.api('GET', `/announcements${q}`)).json().data.map((a: { title: string }) => a.title);
    expect(await titles('')).toEqual(['live']);
    expect(await titles('?status=draft')).toEqual(['draft']);
    expect(await titles('?status=all')).toEqual(['draft', 'live']);
    const bad = await s.api('GET', '/announcements?status=scheduled');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('status');
  });

  it('returns a draft on GET by id and 404 with no body for an unknown id (spec: Pagination; Errors)', async () => {
    s = build();
    const draft = (await s.api('POST', '/announcements', { title: 'draft', body: 'b', is_published: false })).json().data;
    expect((await s.api('GET', `/announcements/${draft.id}`)).statusCode).toBe(200);
    const missing = await s.api('GET', '/announcements/999');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('');
  });

  it('deletes with 204 and an empty body (spec: Errors)', async () => {
    s = build();
    const a = (await s.api('POST', '/announcements', { title: 'x', body: 'b' })).json().data;
    const res = await s.api('DELETE', `/announcements/${a.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await s.api('GET', `/announcements/${a.id}`)).statusCode).toBe(404);
  });

  it('cannot create a confirmable announcement through the API (spec: Announcements, create body)', async () => {
    s = build();
    const res = await s.api('POST', '/announcements', { title: 'x', body: 'b', is_confirmable: true });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('is_confirmable');
  });
});

describe('announcement confirmations (spec: Events, announcement.confirmed)', () => {
  let s: ReturnType<typeof build>;
  afterEach(async () => s.app.close());

  async function confirmable(groups: number[] = []) {
    const res = await s.control('/announcements', { title: 'Policy', body: 'Read me', groups, is_confirmable: true });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: number; is_confirmable: boolean };
  }

  it('fires announcement.confirmed exactly once per employee, the confirmation id stable (spec: Events)', async () => {
    s = build();
    const ada = s.user('ada');
    const a = await confirmable();
    s.events.length = 0;
    const first = await s.control(`/announcements/${a.id}/confirm`, { user_id: ada.id });
    expect(first.statusCode).toBe(201);
    const second = await s.control(`/announcements/${a.id}/confirm`, { user_id: ada.id });
    expect(second.statusCode).toBe(200);
    expect(second.json().data.id).toBe(first.json().data.id);
    expect(s.events.map((e) => e.event)).toEqual(['announcement.confirmed']);
    expect(s.events[0]?.payload).toMatchObject({ id: first.json().data.id, employee: { id: ada.id }, announcement: { id: a.id, title: 'Policy' } });
    expect(PAYLOAD_SCHEMAS['announcement.confirmed'].safeParse(s.events[0]?.payload).success).toBe(true);
    expect((await s.api('GET', `/announcements/${a.id}`)).json().data.confirmations_count).toBe(1);
  });

  it('refuses to confirm an announcement that is not confirmable (spec: Events, announcement.confirmed)', async () => {
    s = build();
    const ada = s.user('ada');
    const a = (await s.api('POST', '/announcements', { title: 'x', body: 'b' })).json().data;
    const res = await s.control(`/announcements/${a.id}/confirm`, { user_id: ada.id });
    expect(res.statusCode).toBe(422);
    expect(s.events.filter((e) => e.event === 'announcement.confirmed')).toHaveLength(0);
  });

  it('refuses to confirm an unpublished announcement (spec: Events, announcement.confirmed)', async () => {
    s = build();
    const ada = s.user('ada');
    const a = await confirmable();
    await s.api('PUT', `/announcements/${a.id}`, { is_published: false });
    expect((await s.control(`/announcements/${a.id}/confirm`, { user_id: ada.id })).statusCode).toBe(422);
  });

  it('accepts confirmations only from employees the announcement targets (spec: Announcement.groups)', async () => {
    s = build();
    const eng = s.group('Engineering');
    const inside = s.user('ada', [eng.id]);
    const outside = s.user('bob');
    const a = await confirmable([eng.id]);
    expect((await s.control(`/announcements/${a.id}/confirm`, { user_id: outside.id })).statusCode).toBe(422);
    expect((await s.control(`/announcements/${a.id}/confirm`, { user_id: inside.id })).statusCode).toBe(201);
  });

  it('lists confirmations per announcement and all confirmations newest first with since (spec: Announcements)', async () => {
    s = build();
    const [ada, bob] = [s.user('ada'), s.user('bob')];
    const a = await confirmable();
    await s.control(`/announcements/${a.id}/confirm`, { user_id: ada.id });
    s.clock.advance(60_000);
    await s.control(`/announcements/${a.id}/confirm`, { user_id: bob.id });
    const all = (await s.api('GET', '/confirmations')).json();
    expect(all.data.map((c: { user: { id: number } }) => c.user.id)).toEqual([bob.id, ada.id]);
    const since = (await s.api('GET', `/confirmations?since=${encodeURIComponent('2026-11-22T09:00:30+01:00')}`)).json();
    expect(since.data.map((c: { user: { id: number } }) => c.user.id)).toEqual([bob.id]);
    const one = (await s.api('GET', `/announcements/${a.id}/confirmations`)).json();
    expect(one.meta.total).toBe(2);
    expect((await s.api('GET', '/announcements/999/confirmations')).statusCode).toBe(404);
  });

  it('seeds a published confirmable announcement targeted at a department (DESIGN.md: demo seed)', async () => {
    s = build();
    s.reset({ seed: 'demo' });
    const list = (await s.api('GET', '/announcements')).json().data as { is_confirmable: boolean; is_published: boolean; groups: { type: string }[] }[];
    const seeded = list.find((a) => a.is_confirmable);
    expect(seeded).toMatchObject({ is_published: true });
    expect(seeded?.groups[0]?.type).toBe('department');
  });
});
