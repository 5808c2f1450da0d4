import type { SandboxContext } from '../../context';
import { findUser, reducedUser } from '../../serialize/user';
import { FORM_KIND, type FormRecord, type FormResponseCommentRecord, type FormResponseRecord } from './form-records';

/** Respondents stay hidden on anonymous and whistleblower forms. */
export function hidesRespondent(form: FormRecord | undefined): boolean {
  return form?.type !== 'ordinary';
}

/** A form. spec: not shown. */
export function serializeForm(ctx: SandboxContext, form: FormRecord): Record<string, unknown> {
  const responses = ctx.db.filter<FormResponseRecord>(FORM_KIND.responses, (r) => r.form_id === form.id && r.deleted_at === null);
  return {
    id: form.id,
    title: form.title,
    description: form.description,
    type: form.type,
    is_anonymous: form.type !== 'ordinary',
    fields: form.fields,
    responses_count: responses.length,
    created_at: ctx.iso(form.created_at),
    updated_at: ctx.iso(form.updated_at),
  };
}

function userOrNull(ctx: SandboxContext, id: number): Record<string, unknown> | null {
  const user = findUser(ctx, id);
  return user ? reducedUser(user) : null;
}

/** A form response. spec: not shown (the formresponse events name status, deadline_at, deleted_at). */
export function serializeFormResponse(ctx: SandboxContext, response: FormResponseRecord): Record<string, unknown> {
  const form = ctx.db.get<FormRecord>(FORM_KIND.forms, response.form_id);
  return {
    id: response.id,
    form_id: response.form_id,
    user: hidesRespondent(form) ? null : userOrNull(ctx, response.user_id),
    answers: response.answers,
    status: response.status,
    deadline_at: ctx.isoOrNull(response.deadline_at),
    is_hidden: response.hidden,
    is_archived: response.archived,
    assignees: response.assignee_ids.flatMap((id) => userOrNull(ctx, id) ?? []),
    deleted_at: ctx.isoOrNull(response.deleted_at),
    created_at: ctx.iso(response.created_at),
    updated_at: ctx.iso(response.updated_at),
  };
}

/** spec: Events, formresponse.comment.* — `author` is null for a respondent on an anonymous form. */
export function serializeResponseComment(ctx: SandboxContext, comment: FormResponseCommentRecord, response: FormResponseRecord): Record<string, unknown> {
  const form = ctx.db.get<FormRecord>(FORM_KIND.forms, response.form_id);
  const anonymousRespondent = hidesRespondent(form) && comment.user_id === response.user_id;
  return {
    id: comment.id,
    form_response_id: comment.form_response_id,
    form_id: response.form_id,
    body: comment.body,
    author: anonymousRespondent ? null : userOrNull(ctx, comment.user_id),
    created_at: ctx.iso(comment.created_at),
  };
}
