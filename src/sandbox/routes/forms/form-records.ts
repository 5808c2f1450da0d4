import { z } from 'zod';

/** Forms, their responses and the comments on responses (spec: Other endpoints; Events, formresponse.*). */
export const FORM_KIND = { forms: 'forms', responses: 'form_responses', comments: 'form_response_comments' } as const;

/** spec: not shown — an ordinary form, an anonymous one (respondents hidden), or a whistleblower channel. */
export const FormRecordSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  type: z.enum(['ordinary', 'anonymous', 'whistleblower']),
  fields: z.array(z.object({ id: z.string(), label: z.string(), type: z.enum(['text', 'choice', 'date', 'number']) })),
  created_at: z.number(),
  updated_at: z.number(),
});
export type FormRecord = z.infer<typeof FormRecordSchema>;

export const FORM_RESPONSE_STATUSES = ['new', 'in_progress', 'resolved'] as const;

export const FormResponseRecordSchema = z.object({
  id: z.number().int(),
  form_id: z.number().int(),
  /** The respondent; kept even on anonymous forms, never shown there. */
  user_id: z.number().int(),
  answers: z.record(z.string(), z.unknown()),
  status: z.enum(FORM_RESPONSE_STATUSES),
  deadline_at: z.number().nullable(),
  hidden: z.boolean(),
  archived: z.boolean(),
  assignee_ids: z.array(z.number().int()),
  deleted_at: z.number().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type FormResponseRecord = z.infer<typeof FormResponseRecordSchema>;

/** A public comment, or an internal staff note (`internal`), which never fires an event. */
export const FormResponseCommentRecordSchema = z.object({
  id: z.number().int(),
  form_response_id: z.number().int(),
  user_id: z.number().int(),
  body: z.string(),
  internal: z.boolean(),
  created_at: z.number(),
});
export type FormResponseCommentRecord = z.infer<typeof FormResponseCommentRecordSchema>;
