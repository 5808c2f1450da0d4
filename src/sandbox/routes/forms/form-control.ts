import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../../context';
import { notFound, validationError } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { findUser, isListedUser } from '../../serialize/user';
import { parseIso } from '../../time';
import { FORM_KIND, FORM_RESPONSE_STATUSES, type FormRecord, type FormResponseCommentRecord, type FormResponseRecord } from './form-records';
import { serializeFormResponse, serializeResponseComment } from './serialize-form';

const SubmitSchema = z.strictObject({ user_id: z.number().int().positive(), answers: z.record(z.string(), z.unknown()).default({}) });
const UpdateSchema = z.strictObject({
  status: z.enum(FORM_RESPONSE_STATUSES).optional(),
  deadline_at: z.string().nullable().optional(),
  hidden: z.boolean().optional(),
  archived: z.boolean().optional(),
  assignees: z.array(z.number().int().positive()).optional(),
});
const CommentSchema = z.strictObject({ user_id: z.number().int().positive(), body: z.string().trim().min(1), internal: z.boolean().default(false) });

type Params = { id?: string };

function registeredUser(ctx: SandboxContext, id: number, field: string): void {
  const user = findUser(ctx, id);
  if (!user || !isListedUser(user)) throw validationError(field, 'must be a registered user');
}

/** spec: Events — "Form-response events are never dispatched for whistleblower forms." */
function emitResponseEvent(ctx: SandboxContext, event: string, response: FormResponseRecord, overrides: Record<string, unknown> = {}): void {
  const form = ctx.db.get<FormRecord>(FORM_KIND.forms, response.form_id);
  if (!form || form.type === 'whistleblower') return;
  ctx.events.emit({ event, payload: { ...serializeFormResponse(ctx, response), ...overrides }, entityIds: { form: form.id } });
}

function emitCommentEvent(ctx: SandboxContext, event: string, comment: FormResponseCommentRecord, response: FormResponseRecord): void {
  // spec: Events, formresponse.comment.* — internal staff notes never trigger
  if (comment.internal) return;
  const form = ctx.db.get<FormRecord>(FORM_KIND.forms, response.form_id);
  if (!form || form.type === 'whistleblower') return;
  ctx.events.emit({ event, payload: serializeResponseComment(ctx, comment, response), entityIds: { form: form.id } });
}

function responseOr404(ctx: SandboxContext, raw: unknown): FormResponseRecord {
  const response = ctx.db.get<FormResponseRecord>(FORM_KIND.responses, idParam(raw));
  if (!response) throw notFound();
  return response;
}

/** The changes an update asks for that differ from the response as it is (spec: Events, formresponse.updated). */
function responsePatch(ctx: SandboxContext, response: FormResponseRecord, body: unknown): Partial<FormResponseRecord> {
  const input = validate(UpdateSchema, body);
  const patch: Partial<FormResponseRecord> = {};
  if (input.status !== undefined && input.status !== response.status) patch.status = input.status;
  if (input.deadline_at !== undefined) {
    const deadline = input.deadline_at === null ? null : parseIso(input.deadline_at, ctx.settings.timezone);
    if (deadline !== null && Number.isNaN(deadline)) throw validationError('deadline_at', 'must be an ISO 8601 datetime');
    if (deadline !== response.deadline_at) patch.deadline_at = deadline;
  }
  if (input.hidden !== undefined && input.hidden !== response.hidden) patch.hidden = input.hidden;
  if (input.archived !== undefined && input.archived !== response.archived) patch.archived = input.archived;
  if (input.assignees !== undefined) {
    input.assignees.forEach((id, i) => registeredUser(ctx, id, `assignees.${i}`));
    const next = [...new Set(input.assignees)];
    if (next.join(',') !== response.assignee_ids.join(',')) patch.assignee_ids = next;
  }
  return patch;
}

function changeResponse(ctx: SandboxContext, response: FormResponseRecord, patch: Partial<FormResponseRecord>): FormResponseRecord {
  if (Object.keys(patch).length === 0) return response;
  const updated = ctx.db.update<FormResponseRecord>(FORM_KIND.responses, response.id, { ...patch, updated_at: ctx.now() }) ?? response;
  emitResponseEvent(ctx, 'formresponse.updated', updated);
  return updated;
}

/** Employee and staff actions on forms that fire the formresponse events (DESIGN.md, control API). */
export function registerFormControl(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/_sandbox/forms/:id/responses', async (request, reply) => {
    const form = ctx.db.get<FormRecord>(FORM_KIND.forms, idParam((request.params as Params).id));
    if (!form) throw notFound();
    const input = validate(SubmitSchema, request.body);
    registeredUser(ctx, input.user_id, 'user_id');
    const now = ctx.now();
    const response = ctx.db.insert(FORM_KIND.responses, {
      form_id: form.id,
      user_id: input.user_id,
      answers: input.answers,
      status: 'new',
      deadline_at: null,
      hidden: false,
      archived: false,
      assignee_ids: [],
      deleted_at: null,
      created_at: now,
      updated_at: now,
    } satisfies Omit<FormResponseRecord, 'id'>);
    emitResponseEvent(ctx, 'formresponse.created', response);
    return reply.code(201).send({ data: serializeFormResponse(ctx, response) });
  });

  app.post('/_sandbox/form-responses/:id/update', async (request) => {
    const response = responseOr404(ctx, (request.params as Params).id);
    return { data: serializeFormResponse(ctx, changeResponse(ctx, response, responsePatch(ctx, response, request.body))) };
  });
  app.post('/_sandbox/form-responses/:id/delete', async (request) => {
    const response = responseOr404(ctx, (request.params as Params).id);
    return { data: serializeFormResponse(ctx, changeResponse(ctx, response, response.deleted_at === null ? { deleted_at: ctx.now() } : {})) };
  });
  app.post('/_sandbox/form-responses/:id/restore', async (request) => {
    const response = responseOr404(ctx, (request.params as Params).id);
    return { data: serializeFormResponse(ctx, changeResponse(ctx, response, response.deleted_at === null ? {} : { deleted_at: null })) };
  });
  // permanent delete: the record goes; the event's `deleted_at` shows the deletion (spec: Events, formresponse.updated)
  app.post('/_sandbox/form-responses/:id/destroy', async (request, reply) => {
    const response = responseOr404(ctx, (request.params as Params).id);
    const deletedAt = response.deleted_at ?? ctx.now();
    emitResponseEvent(ctx, 'formresponse.updated', { ...response, deleted_at: deletedAt, updated_at: ctx.now() });
    for (const c of ctx.db.filter<FormResponseCommentRecord>(FORM_KIND.comments, (x) => x.form_response_id === response.id))
      ctx.db.remove(FORM_KIND.comments, c.id);
    ctx.db.remove(FORM_KIND.responses, response.id);
    return reply.code(204).send();
  });

  app.post('/_sandbox/form-responses/:id/comments', async (request, reply) => {
    const response = responseOr404(ctx, (request.params as Params).id);
    const input = validate(CommentSchema, request.body);
    registeredUser(ctx, input.user_id, 'user_id');
    const comment = ctx.db.insert(FORM_KIND.comments, {
      form_response_id: response.id,
      user_id: input.user_id,
      body: input.body,
      internal: input.internal,
      created_at: ctx.now(),
    });
    emitCommentEvent(ctx, 'formresponse.comment.created', comment, response);
    return reply.code(201).send({ data: { ...serializeResponseComment(ctx, comment, response), internal: comment.internal } });
  });
  app.delete('/_sandbox/form-response-comments/:id', async (request, reply) => {
    const comment = ctx.db.get<FormResponseCommentRecord>(FORM_KIND.comments, idParam((request.params as Params).id));
    const response = comment && ctx.db.get<FormResponseRecord>(FORM_KIND.responses, comment.form_response_id);
    if (!comment || !response) throw notFound();
    ctx.db.remove(FORM_KIND.comments, comment.id);
    emitCommentEvent(ctx, 'formresponse.comment.deleted', comment, response);
    return reply.code(204).send();
  });
}
