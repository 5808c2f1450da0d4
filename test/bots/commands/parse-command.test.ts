import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/bots/commands/parse-command';

const opts = { botName: 'Ops Bot' };

describe('parseCommand', () => {
  it('recognises /name with arguments', () => {
    expect(parseCommand('/status api', opts)).toEqual({ name: 'status', args: ['api'], flags: {}, argText: 'api', raw: '/status api' });
  });

  it('recognises a mention of the display name in any case', () => {
    expect(parseCommand('@Ops Bot status api', opts)).toMatchObject({ name: 'status', args: ['api'] });
    expect(parseCommand('@ops bot: Status api', opts)).toMatchObject({ name: 'status', args: ['api'] });
    expect(parseCommand('@OPS BOT, /status', opts)).toMatchObject({ name: 'status', args: [] });
  });

  it('answers a bare mention with help', () => {
    expect(parseCommand('@Ops Bot', opts)).toMatchObject({ name: 'help', args: [] });
  });

  it('ignores other text, other mentions and mentions of a longer name', () => {
    expect(parseCommand('status api', opts)).toBeNull();
    expect(parseCommand('thanks @Ops Bot', opts)).toBeNull();
    expect(parseCommand('@Other Bot status', opts)).toBeNull();
    expect(parseCommand('@Ops Botany status', opts)).toBeNull();
    expect(parseCommand('/ status', opts)).toBeNull();
    expect(parseCommand('/123', opts)).toBeNull();
  });

  it('honours a custom prefix', () => {
    expect(parseCommand('!deploy web', { ...opts, prefix: '!' })).toMatchObject({ name: 'deploy', args: ['web'] });
    expect(parseCommand('/deploy web', { ...opts, prefix: '!' })).toBeNull();
  });

  it('groups double- and single-quoted words, with escapes in double quotes', () => {
    expect(parseCommand(`/say "two words" 'single one' plain "say \\"hi\\""`, opts)?.args).toEqual(['two words', 'single one', 'plain', 'say "hi"']);
    expect(parseCommand('/say “curly quotes” ok', opts)?.args).toEqual(['curly quotes', 'ok']);
    expect(parseCommand('/say "unclosed words', opts)?.args).toEqual(['unclosed words']);
  });

  it('reads --flag, --key=value and --key value', () => {
    const parsed = parseCommand('/deploy web --force --env=prod --region eu-west api', opts);
    expect(parsed?.args).toEqual(['web', 'api']);
    expect(parsed?.flags).toEqual({ force: true, env: 'prod', region: 'eu-west' });
  });

  it('does not take the next flag as a value, and keeps quoted dashes as arguments', () => {
    expect(parseCommand('/deploy --dry-run --force', opts)?.flags).toEqual({ 'dry-run': true, force: true });
    expect(parseCommand('/say "--not-a-flag"', opts)?.args).toEqual(['--not-a-flag']);
    expect(parseCommand('/deploy --note "long text here"', opts)?.flags).toEqual({ note: 'long text here' });
  });

  it('stops reading flags after a bare --', () => {
    expect(parseCommand('/grep -- --literal', opts)).toMatchObject({ args: ['--literal'], flags: {} });
  });

  it('reads a dash that a phone made of "--" as a flag', () => {
    expect(parseCommand('/deploy web —force', opts)?.flags).toEqual({ force: true });
  });

  it('keeps the untouched argument text and the raw message', () => {
    const parsed = parseCommand('  /say   Hello,   "world" ', opts);
    expect(parsed?.argText).toBe('Hello,   "world"');
    expect(parsed?.raw).toBe('  /say   Hello,   "world" ');
  });
});
