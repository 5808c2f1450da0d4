import { afterEach, describe, expect, it } from 'vitest';
import { ApiForbiddenError, ApiNotFoundError } from '../../src/api/errors';
import { formsModule } from '../../src/sandbox/routes/forms';
import { messagingModule } from '../../src/sandbox/routes/messaging';
import { webhooksModule } from '../../src/sandbox/routes/webhooks';
import { newUser } from '../../src/sandbox/seed/base';
import { seedForms } from '../../src/sandbox/seed/forms';
import { KIND } from '../../src/sandbox/state/records';
import { START, startReceiver } from './deliveries-helpers';
import { failure, useHttpSandbox, type HttpSandbox } from './http-harness';

const ORDINARY = 1;
const ANONYMOUS = 2;
const WHISTLEBLOWER = 3;

let closeReceiver: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeReceiver?.();
  closeReceiver = undefined;
});

/** Three staff and the seeded forms. This sandbox has no directory module, so they are written in process. */
function setup(h: HttpSandbox) {
  const ctx = h.sandbox.ctx;
  const users = ['Ada', 'Ben', 'Cleo'].map((n) => ctx.db.insert(KIND.users, newUser(ctx, { first_name: n, last_name: 'Staff', email: `${n}@x.example` })));
  seedForms(ctx);
  return { users };
}

/** Employees act on forms through the control API (DESIGN.md). */
function employees(h: HttpSandbox) {
  const send = (method: string, path: string, body?: unknown) => h.control.send(method, path, body);
  return {
    async submit(form: number, userId: number): Promise<number> {
      return ((await send('POST', `/forms/${form}/responses`, { user_id: userId, answers: { q: 'a' } })) as { data: { id: number } }).data.id;
    },
    update: (id: number, patch: Record<string, unknown>) => send('POST', `/form-responses/${id}/update`, patch),
    async comment(id: number, body: Record<string, unknown>): Promise<number> {
      return ((await send('POST', `/form-responses/${id}/comments`, body)) as { data: { id: number } }).data.id;
    },
    deleteComment: (commentId: number) => send('DELETE', `/form-response-comments/${commentId}`),
    remove: (id: number) => send('POST', `/form-responses/${id}/delete`),
    restore: (id: number) => send('POST', `/form-responses/${id}/restore`),
  };
}

const MODULES = [webhooksModule, messagingModule, formsModule];

describe('forms API', () => {
  const h = useHttpSandbox({ seed: 'empty', start: START, modules: MODULES });

  it('lists the seeded forms, one ordinary, one anonymous and one whistleblower (spec: Other endpoints that exist)', async () => {
    setup(h);
    const body = await h.api.forms.list();
    expect(body.data.map((f) => f.type)).toEqual(['ordinary', 'anonymous', 'whistleblower']);
    expect(body.data.every((f) => (f.responses_count as number) > 0)).toBe(true);
    expect(body.meta!.total).toBe(3);
  });

  it('hides the respondent of an anonymous form and shows it on an ordinary one (spec: Other endpoints that exist)', async () => {
    setup(h);
    const ordinary = await h.api.forms.responses(ORDINARY);
    expect(ordinary.data[0]!.user).toMatchObject({ id: expect.any(Number) });
    const anonymous = await h.api.forms.responses(ANONYMOUS);
    expect(anonymous.data.length).toBeGreaterThan(0);
    expect(anonymous.data.every((r) => r.user === null)).toBe(true);
  });

  it('needs read:formresponses for responses and answers 404 for unknown forms (spec: Other endpoints that exist; Errors)', async () => {
    setup(h);
    const reader = await h.clientWith(['read:forms']);
    await expect(reader.forms.get(ORDINARY)).resolves.toMatchObject({ id: ORDINARY });
    const error = await failure(reader.forms.responses(ORDINARY));
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ missingScope: 'read:formresponses' });
    await expect(h.api.forms.get(99)).rejects.toBeInstanceOf(ApiNotFoundError);
    const missing = await h.raw('GET', '/forms/99');
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('');
  });
});

describe('form-response events', () => {
  const h = useHttpSandbox({ seed: 'empty', start: START, modules: MODULES });
  const staff = employees(h);

  it('fires formresponse.created with the form id as entity when a response is submitted (spec: Events)', async () => {
    const { users } = setup(h);
    const id = await staff.submit(ORDINARY, users[0]!.id);
    expect(h.events).toEqual([
      expect.objectContaining({ event: 'formresponse.created', entityIds: { form: ORDINARY }, payload: expect.objectContaining({ id, form_id: ORDINARY }) }),
    ]);
    expect((await h.api.formResponses.get(id)).status).toBe('new');
  });

  it('fires formresponse.updated on status, deadline, hidden, archived and assignee changes, not when nothing changes (spec: Events)', async () => {
    const { users } = setup(h);
    const id = await staff.submit(ORDINARY, users[0]!.id);
    h.events.length = 0;
    await staff.update(id, { status: 'in_progress' });
    await staff.update(id, { deadline_at: '2026-12-01T12:00:00+01:00' });
    await staff.update(id, { hidden: true });
    await staff.update(id, { archived: true });
    await staff.update(id, { assignees: [users[1]!.id] });
    await staff.update(id, { status: 'in_progress' });
    expect(h.events.map((e) => e.event)).toEqual(Array(5).fill('formresponse.updated'));
    expect(h.events[4]!.payload).toMatchObject({
      status: 'in_progress',
      deadline_at: '2026-12-01T12:00:00+01:00',
      is_hidden: true,
      is_archived: true,
      assignees: [expect.objectContaining({ id: users[1]!.id })],
    });
    expect(await h.api.formResponses.get(id)).toMatchObject({ status: 'in_progress', is_hidden: true, is_archived: true });
  });

  it('fires formresponse.updated with deleted_at on delete, restore and permanent delete (spec: Events, formresponse.updated)', async () => {
    const { users } = setup(h);
    const id = await staff.submit(ORDINARY, users[0]!.id);
    h.events.length = 0;
    await staff.remove(id);
    await staff.restore(id);
    // the control route's own status: raw HTTP
    expect((await h.raw('POST', `/_sandbox/form-responses/${id}/destroy`, { token: null })).status).toBe(204);
    expect(h.events.map((e) => [e.event, e.payload.deleted_at])).toEqual([
      ['formresponse.updated', '2026-11-23T09:00:00+01:00'],
      ['formresponse.updated', null],
      ['formresponse.updated', '2026-11-23T09:00:00+01:00'],
    ]);
    await expect(h.api.formResponses.get(id)).rejects.toBeInstanceOf(ApiNotFoundError);
  });

  it('fires comment events for public comments only, never for internal notes (spec: Events, formresponse.comment.*)', async () => {
    const { users } = setup(h);
    const id = await staff.submit(ORDINARY, users[0]!.id);
    h.events.length = 0;
    const note = await staff.comment(id, { user_id: users[1]!.id, body: 'staff only', internal: true });
    const pub = await staff.comment(id, { user_id: users[1]!.id, body: 'We are on it' });
    await staff.deleteComment(note);
    await staff.deleteComment(pub);
    expect(h.events.map((e) => e.event)).toEqual(['formresponse.comment.created', 'formresponse.comment.deleted']);
    expect(h.events[0]!.payload).toMatchObject({ body: 'We are on it', author: expect.objectContaining({ id: users[1]!.id }) });
  });

  it('sends author null for the respondent commenting on an anonymous form (spec: Events, formresponse.comment.*)', async () => {
    const { users } = setup(h);
    const id = await staff.submit(ANONYMOUS, users[0]!.id);
    h.events.length = 0;
    await staff.comment(id, { user_id: users[0]!.id, body: 'more details' });
    await staff.comment(id, { user_id: users[1]!.id, body: 'thanks' });
    expect(h.events.map((e) => e.payload.author)).toEqual([null, expect.objectContaining({ id: users[1]!.id })]);
  });

  it('never fires any form-response event for a whistleblower form (spec: Events)', async () => {
    const { users } = setup(h);
    const id = await staff.submit(WHISTLEBLOWER, users[0]!.id);
    await staff.update(id, { status: 'resolved' });
    await staff.deleteComment(await staff.comment(id, { user_id: users[1]!.id, body: 'noted' }));
    await staff.remove(id);
    await h.control.send('POST', `/form-responses/${id}/destroy`);
    expect(h.events).toEqual([]);
  });

  it('delivers a form response to a webhook filtered by that form only (spec: Outgoing webhook management, Filterable events)', async () => {
    const { users } = setup(h);
    const rx = await startReceiver();
    closeReceiver = rx.close;
    await h.api.webhooks.create({
      name: 'forms',
      url: rx.url,
      events: ['service.formresponse.created'],
      filters: { 'service.formresponse.created': [ANONYMOUS] },
    });
    await staff.submit(ORDINARY, users[0]!.id);
    await staff.submit(ANONYMOUS, users[0]!.id);
    await h.control.send('POST', '/deliveries/settle');
    expect(rx.received.map((r) => (JSON.parse(r.body) as { payload: { form_id: number; user: unknown } }).payload)).toEqual([
      expect.objectContaining({ form_id: ANONYMOUS, user: null }),
    ]);
  });

  it('answers 422 naming user_id for a respondent who is not a registered user (spec: Errors)', async () => {
    setup(h);
    const res = await h.raw('POST', `/_sandbox/forms/${ORDINARY}/responses`, { body: { user_id: 999, answers: {} }, token: null });
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({ message: expect.stringContaining('user_id') });
  });
});
