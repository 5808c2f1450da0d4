import type { BotContext, CommandInvocation } from 'intrabot';
import type { PairingConfig } from './pairing-config';
import { JOINED_KEY, LEFT_KEY, type MemberRef } from './pairing-store';

type Ctx = BotContext<PairingConfig>;

/** `/pairing join`, `/pairing leave`, `/pairing` (where you stand): the next round takes it into account. */
export async function pairingCommand(cmd: CommandInvocation, ctx: Ctx): Promise<unknown> {
  const action = (cmd.args[0] ?? '').toLowerCase();
  const me: MemberRef = { id: cmd.user.id, name: cmd.user.name };
  const joined = (await ctx.store.get<MemberRef[]>(JOINED_KEY)) ?? [];
  const left = (await ctx.store.get<number[]>(LEFT_KEY)) ?? [];
  if (action === 'join') {
    await ctx.store.set(JOINED_KEY, [...joined.filter((m) => m.id !== me.id), me]);
    await ctx.store.set(
      LEFT_KEY,
      left.filter((id) => id !== me.id),
    );
    return ctx.reply(`☕ You are in, ${me.name}: the next coffee round pairs you with someone.`);
  }
  if (action === 'leave') {
    await ctx.store.set(
      JOINED_KEY,
      joined.filter((m) => m.id !== me.id),
    );
    await ctx.store.set(LEFT_KEY, [...left.filter((id) => id !== me.id), me.id]);
    return ctx.reply(`You are out of the coffee rounds, ${me.name}. Write /pairing join to come back.`);
  }
  if (action !== '') return ctx.reply('Usage: /pairing join, /pairing leave, or /pairing to see where you stand.');
  if (left.includes(me.id)) return ctx.reply('You left the coffee rounds. Write /pairing join to come back.');
  if (joined.some((m) => m.id === me.id)) return ctx.reply('You are in the coffee rounds (you joined). Write /pairing leave to stop.');
  return ctx.reply(
    ctx.config.group === ''
      ? 'You are not in the coffee rounds. Write /pairing join to take part.'
      : `Members of ${ctx.config.group} are in the coffee rounds (unless away). Write /pairing leave to stop, or /pairing join if you are not one.`,
  );
}
