import { type Achievement, ApiForbiddenError, ApiNotFoundError, ApiValidationError, type BotContext, type CommandInvocation, ConfigError } from 'intrabot';
import { kudosAchievementId } from './achievement';
import { congratulationWall } from './congratulation-wall';
import { resolvePerson, type Person } from './directory';
import type { KudosConfig } from './kudos-config';
import { markOwnAward, markPendingAward } from './own-awards';
import { parseKudos } from './parse-kudos';

const USAGE = 'Usage: /kudos Full Name for the reason (quote the name if it contains "for": /kudos "Name" for the reason)';

/**
 * `/kudos Full Name for reason`: finds the colleague in the directory (asking back when the name is
 * ambiguous), awards the configured achievement and posts the congratulation with the reason on
 * their department wall (award rows carry no reason: spec: Award).
 */
export async function giveKudos(cmd: CommandInvocation, ctx: BotContext<KudosConfig>): Promise<unknown> {
  const request = parseKudos(cmd.argText);
  if (!request) return ctx.reply(USAGE);
  const found = await resolvePerson(ctx, ctx.config.directory_cache, request.name, request.qualifier);
  const label = request.qualifier ? `${request.name} (${request.qualifier})` : request.name;
  if (found.length === 0) return ctx.reply(`I found nobody named ${label} in the directory.`);
  if (found.length > 1) return ctx.reply(await ctx.render('ambiguous', { name: label, people: found.map(describe) }));
  const person = found[0]!;
  if (person.id === cmd.user.id) return ctx.reply('Kudos are for colleagues: ask someone else to send yours. 😉');

  let achievement: Achievement;
  try {
    achievement = await awardKudos(ctx, cmd, person);
  } catch (error) {
    if (!isPermanent(error)) throw error; // the inbox retries the command
    ctx.log.error('kudos could not be awarded', { error: String(error) });
    return ctx.reply(
      `Sorry, I cannot award kudos right now (${error instanceof ConfigError ? 'the kudos achievement is not set up' : 'the platform refused the award'}). Please tell an administrator.`,
    );
  }
  const wall = await congratulationWall(ctx, person.department?.id);
  const data = { giver: cmd.user, person, achievement, reason: request.reason };
  if (wall !== undefined) await ctx.post({ wall }, { template: 'kudos', data });
  return ctx.reply(`${achievement.emoji} ${person.name} received "${achievement.title}"${wall === undefined ? '' : ' and a post on their wall'}. Thank you!`);
}

/** Awards the configured achievement to the person, dated the day the command was written. */
async function awardKudos(ctx: BotContext<KudosConfig>, cmd: CommandInvocation, person: Person): Promise<Achievement> {
  const api = ctx.api;
  const achievementId = await kudosAchievementId(ctx, ctx.config.achievement);
  const day = ctx.dateOf(await commandTime(cmd, ctx));
  await markPendingAward(ctx.store, achievementId, person.id);
  const [award] = await api.achievements.award(achievementId, [
    { user_id: person.id, awarded_at: day, ...(person.department ? { department_id: person.department.id } : {}) },
  ]);
  if (award) await markOwnAward(ctx.store, Number(award.id));
  return api.achievements.get(achievementId);
}

/** Failures that a retry would not cure: a missing or unpublished achievement, a refused row. */
function isPermanent(error: unknown): boolean {
  return error instanceof ConfigError || error instanceof ApiNotFoundError || error instanceof ApiValidationError || error instanceof ApiForbiddenError;
}

function describe(person: Person): { name: string; department: string; email: string } {
  return { name: person.name, department: person.department?.name ?? 'no department', email: person.email };
}

/**
 * When the command was written: the post's or comment's `created_at` (the platform's clock, not ours).
 * Not `ctx.today()`: a command handled late (retried, or recovered after the runtime was down) across
 * midnight would be dated the next day, and the platform takes an award on another day for a new one
 * (spec: Award rules 3 and 4), so a retry would award twice.
 */
async function commandTime(cmd: CommandInvocation, ctx: BotContext<unknown>): Promise<string> {
  const api = ctx.api;
  const { postId, wallId, commentId } = cmd.source;
  const item = commentId === undefined ? await api.posts.get(wallId, postId) : await api.comments.get(postId, commentId);
  return item.created_at;
}
