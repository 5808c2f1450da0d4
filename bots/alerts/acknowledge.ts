import type { BotContext, BotEvent, CommandInvocation } from 'intrabot';
import { acknowledgeAlert } from 'intrabot/helpers';
import { silenceAcknowledged } from './ack-silence';
import type { SilencesConfig } from './config';

type Ctx = BotContext<SilencesConfig>;

/** A comment that is only this word (any case, an optional `/` or `!`) acknowledges the post it is under. */
const ACK_WORD = /^[/!]?ack\.?$/i;

/** `/ack` (or `@Alerts ack`) under a firing alert post. */
export async function ackCommand(cmd: CommandInvocation, ctx: Ctx): Promise<unknown> {
  const answered = await acknowledge(ctx, cmd.source, cmd.user);
  if (!answered) return ctx.reply('There is nothing to acknowledge here: this is not one of my alert posts.');
}

/** A plain `ack` comment under a firing alert post; any other comment, and `ack` under any other post, is left alone. */
export async function ackComment(event: BotEvent<'comment.created'>, ctx: Ctx): Promise<unknown> {
  const comment = event.payload;
  if (!ACK_WORD.test(comment.body.trim())) return;
  await acknowledge(ctx, { postId: comment.post_id }, { id: comment.author.id, name: comment.author.name });
}

/**
 * Records the acknowledgement (the first one wins, across replicas; a resolved incident is left as it
 * is), which edits the post in place to show it (queued like any send), silences its group when its
 * input is one of `silence_on_ack`'s, and answers under it. False when the post is not one of the
 * bot's alert posts (nothing done).
 */
async function acknowledge(ctx: Ctx, where: { postId: number }, by: { id: number; name: string }): Promise<boolean> {
  const acked = await acknowledgeAlert(ctx, where.postId, by);
  if (!acked) return false;
  const { incident, first } = acked;
  if (first) {
    const silenced = await silenceAcknowledged(ctx, incident, by);
    const taken = `✋ ${by.name} acknowledged ${incident.alerts === 1 ? 'this alert' : `these ${incident.alerts} alerts`}.`;
    await ctx.reply(silenced ? `${taken}\n${silenced}` : taken);
  } else if (incident.acknowledged) await ctx.reply(`Already acknowledged by ${incident.acknowledged.by.name}.`);
  else await ctx.reply('These alerts have resolved: there is nothing left to acknowledge.');
  return true;
}
