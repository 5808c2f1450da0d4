import { z } from 'intrabot';

const PersonSchema = z.looseObject({ id: z.number().int(), name: z.string() });

/**
 * What the bot reads of a form response, in an event or from `GET /form-responses/{id}`. The spec
 * shows only `status`, `deadline_at` and `deleted_at` (Events, formresponse.updated); `user`,
 * `answers` and `assignees` are read as the sandbox serves them, and are optional.
 */
export const FormResponseReadSchema = z.looseObject({
  id: z.number().int(),
  form_id: z.number().int().optional(),
  // spec: Events, formresponse.comment.*: null for the respondent of an anonymous form
  user: PersonSchema.nullable().optional(),
  answers: z.record(z.string(), z.unknown()).default({}),
  status: z.string().nullable().optional(),
  deadline_at: z.string().nullable().optional(),
  is_archived: z.boolean().optional(),
  assignees: z.array(PersonSchema).default([]),
  deleted_at: z.string().nullable().optional(),
  created_at: z.string().optional(),
});
export type FormResponseRead = z.output<typeof FormResponseReadSchema>;

/** What the bot keeps of a request in its store (`ticket:<id>`). */
export const TicketSchema = z.object({
  id: z.number().int(),
  formId: z.number().int(),
  formTitle: z.string(),
  status: z.string(),
  deadlineAt: z.string().nullable(),
  archived: z.boolean(),
  assignees: z.array(z.object({ id: z.number().int(), name: z.string() })),
  deletedAt: z.string().nullable(),
  /** Where the request went: the triage wall (the post's id once found), or an assignee's DMs. */
  to: z.union([z.object({ wall: z.number().int(), postId: z.number().int().optional() }), z.object({ dm: z.number().int() })]),
  /** When the bot posted it (ms): how long to wait for the post to show on the wall. */
  postedAt: z.number(),
});
export type Ticket = z.output<typeof TicketSchema>;

export const ticketKey = (id: number) => `ticket:${id}`;

/** The parts of a ticket that change with `formresponse.updated`, from a response as read. */
export function stateOf(response: FormResponseRead): Pick<Ticket, 'status' | 'deadlineAt' | 'archived' | 'assignees' | 'deletedAt'> {
  return {
    status: response.status ?? 'new',
    deadlineAt: response.deadline_at ?? null,
    archived: response.is_archived ?? false,
    assignees: response.assignees.map((a) => ({ id: a.id, name: a.name })),
    deletedAt: response.deleted_at ?? null,
  };
}

/** One change an update made, as the `update` template shows it. */
export type TicketChange =
  | { field: 'status'; before: string; after: string }
  | { field: 'deadline'; before: string | null; after: string | null }
  | { field: 'assignees'; added: string[]; removed: string[] }
  | { field: 'deleted' | 'restored' | 'archived' | 'unarchived' };

/** What changed between the ticket as kept and the response as the update delivered it. */
export function changesBetween(before: Ticket, after: ReturnType<typeof stateOf>): TicketChange[] {
  const changes: TicketChange[] = [];
  // spec: Events, formresponse.updated: "deleted, restored or permanently deleted (the delivery's deleted_at shows it)"
  if (before.deletedAt === null && after.deletedAt !== null) changes.push({ field: 'deleted' });
  if (before.deletedAt !== null && after.deletedAt === null) changes.push({ field: 'restored' });
  if (before.status !== after.status) changes.push({ field: 'status', before: before.status, after: after.status });
  if (!sameInstant(before.deadlineAt, after.deadlineAt)) changes.push({ field: 'deadline', before: before.deadlineAt, after: after.deadlineAt });
  const had = new Set(before.assignees.map((a) => a.id));
  const has = new Set(after.assignees.map((a) => a.id));
  const added = after.assignees.filter((a) => !had.has(a.id)).map((a) => a.name);
  const removed = before.assignees.filter((a) => !has.has(a.id)).map((a) => a.name);
  if (added.length > 0 || removed.length > 0) changes.push({ field: 'assignees', added, removed });
  if (before.archived !== after.archived) changes.push({ field: after.archived ? 'archived' : 'unarchived' });
  return changes;
}

function sameInstant(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return Date.parse(a) === Date.parse(b);
}
