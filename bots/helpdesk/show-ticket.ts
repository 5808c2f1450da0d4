import { ApiNotFoundError, type BotContext, type CommandInvocation } from 'intrabot';
import { readDeskForm } from './desk-form';
import { deskFormOf, type HelpdeskConfig } from './helpdesk-config';
import { FormResponseReadSchema, stateOf, TicketSchema, ticketKey } from './ticket';

/**
 * `/ticket <id>`: the request's form, status, assignees and deadline, from the store, or read from
 * the platform (`GET /form-responses/{id}`) for a request of a desk form the bot has not seen. A
 * response of any other form (a whistleblower report among them) is answered as unknown: the bot
 * tells nobody it exists. Neither the answers nor the requester are shown.
 */
export async function showTicket(cmd: CommandInvocation, ctx: BotContext<HelpdeskConfig>): Promise<unknown> {
  const id = Number((cmd.args[0] ?? '').replace(/^#/, ''));
  if (!Number.isInteger(id) || id <= 0) return ctx.reply('Usage: /ticket <id>, e.g. /ticket 12');
  const unknown = `I know no request #${id}.`;
  const stored = await ctx.store.get(ticketKey(id));
  if (stored !== undefined) {
    const t = TicketSchema.parse(stored);
    return ctx.reply({
      template: 'ticket',
      data: { id, form: t.formTitle, status: t.status, deadline: t.deadlineAt, assignees: t.assignees, deleted: t.deletedAt !== null },
    });
  }
  let response;
  try {
    response = FormResponseReadSchema.parse(await ctx.api.formResponses.get(id));
  } catch (error) {
    if (error instanceof ApiNotFoundError) return ctx.reply(unknown);
    throw error;
  }
  const desk = deskFormOf(ctx.config, response.form_id);
  if (!desk) return ctx.reply(unknown);
  const form = await readDeskForm(ctx, desk.id);
  if (form.whistleblower) return ctx.reply(unknown);
  const s = stateOf(response);
  return ctx.reply({
    template: 'ticket',
    data: { id, form: form.title, status: s.status, deadline: s.deadlineAt, assignees: s.assignees, deleted: s.deletedAt !== null },
  });
}
