import type { BotContext, BotEvent } from 'intrabot';
import type { HelpdeskConfig } from './helpdesk-config';
import { changesBetween, FormResponseReadSchema, stateOf, type Ticket, TicketSchema, ticketKey } from './ticket';
import { requestPostId } from './request-post';

/**
 * `formresponse.updated`: what changed (status, deadline, assignees, deletion: spec: Events,
 * formresponse.updated), as a comment under the request's post, or a direct message to the
 * assignee it was routed to. A response the bot never posted is left alone.
 */
export async function followRequest(event: BotEvent<'formresponse.updated'>, ctx: BotContext<HelpdeskConfig>): Promise<void> {
  const response = FormResponseReadSchema.parse(event.payload);
  const stored = await ctx.store.get(ticketKey(response.id));
  if (stored === undefined) return ctx.log.debug('an update of a request the desk never posted', { response: response.id });
  const ticket = TicketSchema.parse(stored);
  const after = stateOf(response);
  const changes = changesBetween(ticket, after);
  if (changes.length === 0) return; // hidden flag only, or a delivery seen before
  const next: Ticket = { ...ticket, ...after };
  const message = { template: 'update', data: { id: ticket.id, form: ticket.formTitle, changes } };
  if ('dm' in ticket.to) {
    await ctx.store.set(ticketKey(ticket.id), next);
    await ctx.dm(ticket.to.dm, message);
    return;
  }
  const postId = await requestPostId(ctx, ticket, ticket.to);
  await ctx.store.set(ticketKey(ticket.id), { ...next, to: postId === undefined ? ticket.to : { wall: ticket.to.wall, postId } });
  await (postId === undefined ? ctx.post({ wall: ticket.to.wall }, message) : ctx.comment(postId, message));
}
