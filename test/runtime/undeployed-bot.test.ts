import { describe, expect, it } from 'vitest';
import { botNotDeployed, BotNotDeployedError, UnknownBotError, type BotsFound } from '../../src/runtime/jobs/undeployed-bot';

const FOUND: BotsFound = {
  bots: [{ name: 'kudos' }, { name: 'reports' }],
  skipped: [{ name: 'birthday', reason: 'example bot, not enabled: set INTRABOT_BOTS=birthday to deploy it' }],
  failures: [{ name: 'broken', error: new Error('bots/broken/bot.yaml:3 schedules.0.cron: not a cron expression\n    at load (...)') }],
  deployments: [
    { tenant: 'default', bot: 'kudos' },
    { tenant: 'acme', bot: 'reports' },
  ],
};

describe('why a bot is not deployed to a tenant', () => {
  it('is nothing for a bot deployed there', () => {
    expect(botNotDeployed(FOUND, 'default', 'kudos')).toBeUndefined();
  });

  it('gives a skipped bot the reason start-up gave', () => {
    const error = botNotDeployed(FOUND, 'default', 'birthday');
    expect(error).toBeInstanceOf(BotNotDeployedError);
    expect(error).toMatchObject({ code: 'unknown_bot', status: 404 });
    expect(error?.message).toBe('bot "birthday" is not deployed to tenant "default": example bot, not enabled: set INTRABOT_BOTS=birthday to deploy it');
  });

  it('says a bot failed to load, with the first line of its error', () => {
    expect(botNotDeployed(FOUND, 'default', 'broken')?.message).toBe(
      'bot "broken" is not deployed to tenant "default": it failed to load: bots/broken/bot.yaml:3 schedules.0.cron: not a cron expression',
    );
  });

  it('names the tenants a loaded bot runs on instead', () => {
    expect(botNotDeployed(FOUND, 'default', 'reports')?.message).toBe(
      'bot "reports" is not deployed to tenant "default": it runs on acme (see tenants: in its bot.yaml)',
    );
  });

  it('calls a name no bot has unknown, with the closest name of any bot and the bots deployed there', () => {
    const error = botNotDeployed(FOUND, 'default', 'birthdya');
    expect(error).toBeInstanceOf(UnknownBotError);
    expect(error?.message).toBe('no bot named "birthdya" (did you mean "birthday"?); the bots deployed to tenant "default" are: kudos');
    expect(botNotDeployed(FOUND, 'globex', 'zzz')?.message).toBe('no bot named "zzz"; no bot is deployed to tenant "globex"');
  });
});
