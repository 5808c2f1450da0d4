import type { BotContext, BotEvent, CommandInvocation } from 'intrabot';
import { acknowledgeAlert } from 'intrabot/helpers';

/** A comment that is only this word (any case, an optional `/` or `!`) acknowledges the post it is under. */
const ACK_WORD = /^[/!]?ack\.?$/i;

/** `/ack` (or `@Alerts ack`) under a firing alert post. */
export async function ackCommand(cmd: CommandInvocation, ctx: BotContext<unknown>): Promise<unknown> {
  const answered = await acknowledge(ctx, cmd.source, cmd.user);
  if (!answered) return ctx.reply('There is nothing to acknowledge here: this is not one of my alert posts.');
}

/** A plain `ack` comment under a firing alert post; any other comment, and `ack` under any other post, is left alone. */
export async function ackComment(event: BotEvent<'comment.created'>, ctx: BotContext<unknown>): Promise<unknown> {
  const comment = event.payload;
  if (!ACK_WORD.test(comment.body.trim())) return;
  await acknowledge(ctx, { postId: comment.post_id, wallId: comment.wall_id }, { id: comment.author.id, name: comment.author.name });
}

/**
 * Records the acknowledgement (the first one wins, across replicas; a resolved incident is left as it
 * is), shows it on the post by editing it in place (PUT, spec: Posts), and answers under it. False when
 * the post is not one of the bot's alert posts (nothing done).
 */
async function acknowledge(ctx: BotContext<unknown>, where: { postId: number; wallId: number }, by: { id: number; name: string }): Promise<boolean> {
  const acked = await acknowledgeAlert(ctx, where.postId, by);
  if (!acked) return false;
  const { incident, first } = acked;
  if (!first && incident.acknowledged) await ctx.reply(`Already acknowledged by ${incident.acknowledged.by.name}.`);
  else if (!first) await ctx.reply('These alerts have resolved: there is nothing left to acknowledge.');
  else {
    // a retried run finds the line already there and does not add it twice
    const post = await ctx.api.posts.get(where.wallId, where.postId);
    const line = `✋ Acknowledged by ${by.name}`;
    if (!post.body.includes(line)) await ctx.api.posts.update(where.wallId, where.postId, { body: `${post.body}\n\n${line}` });
    await ctx.reply(`✋ ${by.name} acknowledged ${incident.alerts === 1 ? 'this alert' : `these ${incident.alerts} alerts`}.`);
  }
  return true;
}
