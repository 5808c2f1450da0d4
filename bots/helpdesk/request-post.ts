import type { BotContext } from 'intrabot';
import type { Ticket } from './ticket';

/** How long an update waits (by the inbox's retries) for its request's post to reach the wall. */
const POST_GRACE_MS = 60 * 60_000;

/** The request post is not on the wall (yet): thrown so that the inbox retries the update later. */
export class RequestPostNotFoundError extends Error {
  readonly code = 'HELPDESK_REQUEST_POST_NOT_FOUND';
  constructor(ticketId: number, wallId: number) {
    super(`the post of request #${ticketId} is not on wall ${wallId} yet`);
  }
}

/**
 * The id of the post that announced a request on the triage wall. `ctx.post` answers with an
 * outbox receipt, not the platform's post id, so the post is found on the wall once: the bot's own
 * posts since the request (`GET /walls/{id}/posts`), the one whose first line names `#<id>`.
 * Undefined once the post has been missing for an hour (removed from the wall, say).
 */
export async function requestPostId(ctx: BotContext<unknown>, ticket: Ticket, to: { wall: number; postId?: number | undefined }): Promise<number | undefined> {
  if (to.postId !== undefined) return to.postId;
  const marker = new RegExp(`#${ticket.id}(?!\\d)`);
  const since = new Date(ticket.postedAt - 60_000).toISOString();
  for await (const post of ctx.api.posts.all(to.wall, { since })) {
    const mine = ctx.bot.userId === undefined || post.author.id === ctx.bot.userId;
    if (mine && marker.test(post.body.split('\n', 1)[0] ?? '')) return post.id;
  }
  if (ctx.now() - ticket.postedAt < POST_GRACE_MS) throw new RequestPostNotFoundError(ticket.id, to.wall);
  // gone from the wall (removed by a moderator, say): the caller posts the update on its own
  return undefined;
}
