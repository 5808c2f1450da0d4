import { defineStep, yesNo, type BotContext, type CommandInvocation } from 'intrabot';

/** What the confirmation step needs: what to deploy where, and who asked. */
export interface DeployRequest {
  service: string;
  env: string;
  requestedBy: string;
}

/** The environments `/deploy` knows. */
export const ENVIRONMENTS = ['staging', 'prod'] as const;

/**
 * `/deploy <service> <env>`: asks the user who wrote it to confirm (their answer, a comment on the same
 * post, is the only one taken); nothing happens until they do.
 */
export async function askToDeploy(cmd: CommandInvocation, ctx: BotContext<{ services: string[] }>): Promise<unknown> {
  const [service, env] = cmd.args;
  if (!service || !env) return ctx.reply('Usage: /deploy <service> <env>');
  if (!ctx.config.services.includes(service)) return ctx.reply(`I know no service "${service}" (I know ${ctx.config.services.join(', ')}).`);
  if (!(ENVIRONMENTS as readonly string[]).includes(env)) return ctx.reply(`I know no environment "${env}" (I know ${ENVIRONMENTS.join(', ')}).`);
  const state: DeployRequest = { service, env, requestedBy: cmd.user.name };
  return ctx.ask({ prompt: `Deploy ${service} to ${env}? Answer yes or no within 10 minutes.`, step: 'confirm-deploy', state, timeout: '10m' });
}

/**
 * The answer to "Deploy X to Y?": yes starts it (here: recorded in the bot's store, where a real bot
 * would call its delivery pipeline), no cancels it; no answer in time cancels it with a message.
 */
export const confirmDeploy = defineStep({
  answer: yesNo(),
  run: async (yes, request: DeployRequest, ctx) => {
    if (!yes) return ctx.reply(`Cancelled: ${request.service} is not deployed to ${request.env}.`);
    await ctx.store.set(`deploy:${request.service}:${request.env}`, { at: ctx.now(), by: request.requestedBy });
    return ctx.reply(`🚀 Deploying ${request.service} to ${request.env}, as ${request.requestedBy} confirmed.`);
  },
  timeout: async (request, ctx) => ctx.reply(`No answer in 10 minutes: ${request.service} is not deployed to ${request.env}.`),
});
