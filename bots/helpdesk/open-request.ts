import type { BotContext, BotEvent } from 'intrabot';
import { deskFormOf, type HelpdeskConfig } from './helpdesk-config';
import { routeOf } from './route-request';
import { FormResponseReadSchema, stateOf, type Ticket, ticketKey } from './ticket';
import { triageWallId } from './triage-wall';
import { readDeskForm, type DeskFormInfo } from './desk-form';

/**
 * `formresponse.created`: the request, posted on the triage wall, or sent by direct message to the
 * assignee the form's routing rules name; kept in the store as a ticket for its updates and `/ticket`.
 */
export async function openRequest(event: BotEvent<'formresponse.created'>, ctx: BotContext<HelpdeskConfig>): Promise<void> {
  const response = FormResponseReadSchema.parse(event.payload);
  const desk = deskFormOf(ctx.config, response.form_id);
  // the events filter should have kept other forms away; a copy of the bot with a wider filter must not post them
  if (!desk) return ctx.log.debug('a form the desk does not serve', { form: response.form_id });
  if ((await ctx.store.get(ticketKey(response.id))) !== undefined) return; // a delivery seen before
  const form = await readDeskForm(ctx, desk.id);
  // spec: Events: "Form-response events are never dispatched for whistleblower forms": should one come, it stays unseen
  if (form.whistleblower) return ctx.log.warn('a whistleblower form response reached the bot: ignored', { form: desk.id });
  const assignee = routeOf(desk, response.answers);
  const data = {
    id: response.id,
    form: form.title,
    // never the respondent of an anonymous form, even if a payload carried one
    requester: form.anonymous ? null : (response.user?.name ?? null),
    answers: answersOf(form, response.answers),
    created_at: response.created_at ?? new Date(ctx.now()).toISOString(),
    routed: assignee !== undefined,
  };
  const to: Ticket['to'] = assignee !== undefined ? { dm: assignee } : { wall: await triageWallId(ctx) };
  const ticket: Ticket = { id: response.id, formId: desk.id, formTitle: form.title, ...stateOf(response), to, postedAt: ctx.now() };
  // kept before sending: a retried delivery finds it and sends nothing twice
  await ctx.store.set(ticketKey(response.id), ticket);
  const message = { template: 'request', data };
  await ('dm' in to ? ctx.dm(to.dm, message) : ctx.post({ wall: to.wall }, message));
}

function answersOf(form: DeskFormInfo, answers: Record<string, unknown>): { label: string; value: string }[] {
  return Object.entries(answers)
    .filter(([, v]) => v !== null && v !== undefined && String(v).trim() !== '')
    .map(([key, v]) => ({ label: form.labels[key] ?? key, value: Array.isArray(v) ? v.join(', ') : String(v) }));
}
