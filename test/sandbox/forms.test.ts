import { afterEach, describe, expect, it } from 'vitest';
import type { PlatformEvent } from '../../src/sandbox/events';
import { newUser } from '../../src/sandbox/seed/base';
import { seedForms } from '../../src/sandbox/seed/forms';
import { KIND } from '../../src/sandbox/state/records';
import { API, AUTH, buildTestSandbox, startReceiver } from './deliveries-helpers';

type Sandbox = ReturnType<typeof buildTestSandbox>;
let sandbox: Sandbox | undefined;
let closeReceiver: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeReceiver?.();
  await sandbox?.app.close();
  sandbox = undefined;
  closeReceiver = undefined;
});

const ORDINARY = 1;
const ANONYMOUS = 2;
const WHISTLEBLOWER = 3;

function setup() {
  const s = buildTestSandbox();
  sandbox = s;
  const users = ['Ada', 'Ben', 'Cleo'].map((n) => s.ctx.db.insert(KIND.users, newUser(s.ctx, { first_name: n, last_name: 'Staff', email: `${n}@x.example` })));
  seedForms(s.ctx);
  const events: PlatformEvent[] = [];
  s.ctx.events.on((e) => events.push(e));
  return { s, events, users };
}

async function submit(s: Sandbox, form: number, userId: number) {
  const res = await s.app.inject({ method: 'POST', url: `/_sandbox/forms/${form}/responses`, payload: { user_id: userId, answers: { q: 'a' } } });
  expect(res.statusCode).toBe(201);
  return (res.json() as { data: { id: number } }).data.id;
}

describe('forms API', () => {
  it('lists the seeded forms, one ordinary, one anonymous and one whistleblower (spec: Other endpoints that exist)', async () => {
    const { s } = setup();
    const res = await s.app.inject({ method: 'GET', url: `${API}/forms`, headers: AUTH });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: { type: string; responses_count: number }[]; meta: { total: number } };
    expect(body.data.map((f) => f.type)).toEqual(['ordinary', 'anonymous', 'whistleblower']);
    expect(body.data.every((f) => f.responses_count > 0)).toBe(true);
    expect(body.meta.total).toBe(3);
  });

  it('hides the respondent of an anonymous form and shows it on an ordinary one (spec: Other endpoints that exist)', async () => {
    const { s } = setup();
    const ordinary = (await s.app.inject({ method: 'GET', url: `${API}/forms/${ORDINARY}/responses`, headers: AUTH })).json() as { data: { user: unknown }[] };
    expect(ordinary.data[0]!.user).toMatchObject({ id: expect.any(Number) });
    const anonymous = (await s.app.inject({ method: 'GET', url: `${API}/forms/${ANONYMOUS}/responses`, headers: AUTH })).json() as { data: { user: unknown }[] };
    expect(anonymous.data.every((r) => r.user === null)).toBe(true);
  });

  it('needs read:formresponses for responses and answers 404 for unknown forms (spec: Other endpoints that exist; Errors)', async () => {
    const { s } = setup();
    const token = await s.app.inject({ method: 'POST', url: '/_sandbox/tokens', payload: { name: 'forms', scopes: ['read:forms'] } });
    const headers = { authorization: `Bearer ${(token.json() as { token: string }).token}` };
    expect((await s.app.inject({ method: 'GET', url: `${API}/forms/${ORDINARY}`, headers })).statusCode).toBe(200);
    expect((await s.app.inject({ method: 'GET', url: `${API}/forms/${ORDINARY}/responses`, headers })).statusCode).toBe(403);
    const missing = await s.app.inject({ method: 'GET', url: `${API}/forms/99`, headers: AUTH });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('');
  });
});

describe('form-response events', () => {
  it('fires formresponse.created with the form id as entity when a response is submitted (spec: Events)', async () => {
    const { s, events, users } = setup();
    const id = await submit(s, ORDINARY, users[0]!.id);
    expect(events).toEqual([expect.objectContaining({ event: 'formresponse.created', entityIds: { form: ORDINARY }, payload: expect.objectContaining({ id, form_id: ORDINARY }) })]);
    const got = await s.app.inject({ method: 'GET', url: `${API}/form-responses/${id}`, headers: AUTH });
    expect((got.json() as { data: { status: string } }).data.status).toBe('new');
  });

  it('fires formresponse.updated on status, deadline, hidden, archived and assignee changes, not when nothing changes (spec: Events)', async () => {
    const { s, events, users } = setup();
    const id = await submit(s, ORDINARY, users[0]!.id);
    events.length = 0;
    const update = (payload: Record<string, unknown>) => s.app.inject({ method: 'POST', url: `/_sandbox/form-responses/${id}/update`, payload });
    await update({ status: 'in_progress' });
    await update({ deadline_at: '2026-12-01T12:00:00+01:00' });
    await update({ hidden: true });
    await update({ archived: true });
    await update({ assignees: [users[1]!.id] });
    await update({ status: 'in_progress' });
    expect(events.map((e) => e.event)).toEqual(Array(5).fill('formresponse.updated'));
    expect(events[4]!.payload).toMatchObject({ status: 'in_progress', deadline_at: '2026-12-01T12:00:00+01:00', is_hidden: true, is_archived: true, assignees: [expect.objectContaining({ id: users[1]!.id })] });
  });

  it('fires formresponse.updated with deleted_at on delete, restore and permanent delete (spec: Events, formresponse.updated)', async () => {
    const { s, events, users } = setup();
    const id = await submit(s, ORDINARY, users[0]!.id);
    events.length = 0;
    await s.app.inject({ method: 'POST', url: `/_sandbox/form-responses/${id}/delete` });
    await s.app.inject({ method: 'POST', url: `/_sandbox/form-responses/${id}/restore` });
    const destroyed = await s.app.inject({ method: 'POST', url: `/_sandbox/form-responses/${id}/destroy` });
    expect(destroyed.statusCode).toBe(204);
    expect(events.map((e) => [e.event, e.payload.deleted_at])).toEqual([
      ['formresponse.updated', '2026-11-23T09:00:00+01:00'],
      ['formresponse.updated', null],
      ['formresponse.updated', '2026-11-23T09:00:00+01:00'],
    ]);
    expect((await s.app.inject({ method: 'GET', url: `${API}/form-responses/${id}`, headers: AUTH })).statusCode).toBe(404);
  });

  it('fires comment events for public comments only, never for internal notes (spec: Events, formresponse.comment.*)', async () => {
    const { s, events, users } = setup();
    const id = await submit(s, ORDINARY, users[0]!.id);
    events.length = 0;
    const note = await s.app.inject({ method: 'POST', url: `/_sandbox/form-responses/${id}/comments`, payload: { user_id: users[1]!.id, body: 'staff only', internal: true } });
    const pub = await s.app.inject({ method: 'POST', url: `/_sandbox/form-responses/${id}/comments`, payload: { user_id: users[1]!.id, body: 'We are on it' } });
    await s.app.inject({ method: 'DELETE', url: `/_sandbox/form-response-comments/${(note.json() as { data: { id: number } }).data.id}` });
    await s.app.inject({ method: 'DELETE', url: `/_sandbox/form-response-comments/${(pub.json() as { data: { id: number } }).data.id}` });
    expect(events.map((e) => e.event)).toEqual(['formresponse.comment.created', 'formresponse.comment.deleted']);
    expect(events[0]!.payload).toMatchObject({ body: 'We are on it', author: expect.objectContaining({ id: users[1]!.id }) });
  });

  it('sends author null for the respondent commenting on an anonymous form (spec: Events, formresponse.comment.*)', async () => {
    const { s, events, users } = setup();
    const id = await submit(s, ANONYMOUS, users[0]!.id);
    events.length = 0;
    await s.app.inject({ method: 'POST', url: `/_sandbox/form-responses/${id}/comments`, payload: { user_id: users[0]!.id, body: 'more details' } });
    await s.app.inject({ method: 'POST', url: `/_sandbox/form-responses/${id}/comments`, payload: { user_id: users[1]!.id, body: 'thanks' } });
    expect(events.map((e) => e.payload.author)).toEqual([null, expect.objectContaining({ id: users[1]!.id })]);
  });

  it('never fires any form-response event for a whistleblower form (spec: Events)', async () => {
    const { s, events, users } = setup();
    const id = await submit(s, WHISTLEBLOWER, users[0]!.id);
    await s.app.inject({ method: 'POST', url: `/_sandbox/form-responses/${id}/update`, payload: { status: 'resolved' } });
    const c = await s.app.inject({ method: 'POST', url: `/_sandbox/form-responses/${id}/comments`, payload: { user_id: users[1]!.id, body: 'noted' } });
    await s.app.inject({ method: 'DELETE', url: `/_sandbox/form-response-comments/${(c.json() as { data: { id: number } }).data.id}` });
    await s.app.inject({ method: 'POST', url: `/_sandbox/form-responses/${id}/delete` });
    await s.app.inject({ method: 'POST', url: `/_sandbox/form-responses/${id}/destroy` });
    expect(events).toEqual([]);
  });

  it('delivers a form response to a webhook filtered by that form only (spec: Outgoing webhook management, Filterable events)', async () => {
    const { s, users } = setup();
    const rx = await startReceiver();
    closeReceiver = rx.close;
    await s.app.inject({ method: 'POST', url: `${API}/webhooks`, headers: AUTH, payload: { name: 'forms', url: rx.url, events: ['service.formresponse.created'], filters: { 'service.formresponse.created': [ANONYMOUS] } } });
    await submit(s, ORDINARY, users[0]!.id);
    await submit(s, ANONYMOUS, users[0]!.id);
    await s.app.inject({ method: 'POST', url: '/_sandbox/deliveries/settle' });
    expect(rx.received.map((r) => (JSON.parse(r.body) as { payload: { form_id: number; user: unknown } }).payload)).toEqual([expect.objectContaining({ form_id: ANONYMOUS, user: null })]);
  });

  it('answers 422 naming user_id for a respondent who is not a registered user (spec: Errors)', async () => {
    const { s } = setup();
    const res = await s.app.inject({ method: 'POST', url: `/_sandbox/forms/${ORDINARY}/responses`, payload: { user_id: 999, answers: {} } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: expect.stringContaining('user_id') });
  });
});
