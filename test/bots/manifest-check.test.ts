import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkBotAgainstManifest } from '../../src/bots/manifest-check';
import { parseManifest } from '../../src/bots/manifest-loader';
import { defineBot } from '../../src/bots/define-bot';

const noop = (): void => undefined;

function manifest(extra: string) {
  return parseManifest(`name: x\ndisplay_name: X\n${extra}`, 'bots/x/bot.yaml', {});
}

describe('checkBotAgainstManifest', () => {
  it('finds nothing wrong with a bot that matches its manifest', () => {
    const m = manifest('events: [post.created]\nschedules: [{ job: digest, cron: "0 9 * * *" }]\nconfig: { greeting: Hi }\n');
    const bot = defineBot({ config: z.object({ greeting: z.string() }), on: { 'post.created': noop }, jobs: { digest: noop } });
    expect(checkBotAgainstManifest(m, bot)).toEqual([]);
  });

  it('refuses a scheduled job the bot does not define', () => {
    const problems = checkBotAgainstManifest(manifest('schedules: [{ job: digest, cron: "0 9 * * *" }]\n'), defineBot({}));
    expect(problems).toEqual([{ field: 'schedules.0.job', message: expect.stringContaining('digest'), severity: 'error' }]);
  });

  it('suggests the job a misspelt scheduled job is a typo of', () => {
    const problems = checkBotAgainstManifest(manifest('schedules: [{ job: digets, cron: "0 9 * * *" }]\n'), defineBot({ jobs: { digest: noop } }));
    expect(problems[0]?.message).toBe('job "digets" is not defined in the bot\'s jobs (did you mean "digest"?)');
  });

  it("checks the jobs a tenant's override schedules too", () => {
    const m = manifest('schedules: [{ job: digest, cron: "0 9 * * *" }]\noverrides:\n  us: { schedules: [{ job: digset, cron: "0 8 * * *" }] }\n');
    expect(checkBotAgainstManifest(m, defineBot({ jobs: { digest: noop } }))).toEqual([
      { field: 'overrides.us.schedules.0.job', message: 'job "digset" is not defined in the bot\'s jobs (did you mean "digest"?)', severity: 'error' },
    ]);
  });

  it("names a config field once: the problem carries no copy of the field's name", () => {
    const bot = defineBot({ config: z.object({ cities: z.array(z.string()) }) });
    expect(checkBotAgainstManifest(manifest('config: { cities: Berlin }\n'), bot)).toEqual([
      { field: 'config.cities', message: expect.not.stringContaining('config.cities'), severity: 'error' },
    ]);
  });

  it("accepts scheduled jobs without handlers of their own when the bot has a '*' job", () => {
    const m = manifest('schedules: [{ job: menu, cron: "0 9 * * MON" }, { job: remind, cron: "0 * * * *" }]\n');
    expect(checkBotAgainstManifest(m, defineBot({ jobs: { remind: noop, '*': noop } }))).toEqual([]);
    expect(checkBotAgainstManifest(m, defineBot({ jobs: { remind: noop } })).map((p) => p.field)).toEqual(['schedules.0.job']);
  });

  it("refuses config the bot's schema rejects, in the base and in a tenant override", () => {
    const m = manifest('config: { greeting: Hi }\noverrides:\n  us: { config: { greeting: 5 } }\n');
    const bot = defineBot({ config: z.object({ greeting: z.string() }) });
    expect(checkBotAgainstManifest(m, bot)).toEqual([{ field: 'overrides.us.config.greeting', message: expect.any(String), severity: 'error' }]);
    expect(checkBotAgainstManifest(manifest('config: {}\n'), bot).map((p) => p.field)).toEqual(['config.greeting']);
  });

  it('warns about subscriptions without handlers and handlers without subscriptions', () => {
    const problems = checkBotAgainstManifest(manifest('events: [user.registered]\n'), defineBot({ on: { 'achievement.awarded': noop } }));
    expect(problems.map((p) => [p.field, p.severity])).toEqual([
      ['events.0', 'warning'],
      ['on.achievement.awarded', 'warning'],
    ]);
  });

  it('counts post.created as the source of commands, and warns when commands have no source', () => {
    const bot = defineBot({ commands: { status: noop } });
    expect(checkBotAgainstManifest(manifest('events: [post.created]\n'), bot)).toEqual([]);
    expect(checkBotAgainstManifest(manifest('events: []\n'), bot).map((p) => p.field)).toEqual(['events']);
  });

  it('warns about a report without a handler', () => {
    const m = manifest('reports: [{ report: todoliststats.daily, secret: s }]\n');
    expect(checkBotAgainstManifest(m, defineBot({})).map((p) => p.field)).toEqual(['reports.0.report']);
    expect(checkBotAgainstManifest(m, defineBot({ reports: { 'todoliststats.daily': noop } }))).toEqual([]);
  });
});
