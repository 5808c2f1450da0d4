import { describe, expect, it } from 'vitest';
import { formatHelp } from '../../../src/bots/commands/format-help';

describe('formatHelp', () => {
  it('lists commands by name with their arguments and descriptions', () => {
    const text = formatHelp([
      { name: 'status', description: 'Shows service health', args: [{ name: 'service', required: false }] },
      { name: 'deploy', description: 'Deploys a service', args: ['service', { name: 'env', required: false, description: 'target env' }] },
      { name: 'ping' },
    ]);
    expect(text).toBe(['Commands:', '/deploy <service> [env] — Deploys a service', '/ping', '/status [service] — Shows service health'].join('\n'));
  });

  it('says who may run restricted commands and uses the given prefix', () => {
    const text = formatHelp(
      [
        { name: 'rollback', permissions: { managers: true } },
        { name: 'deploy', permissions: { groups: [3] } },
      ],
      { prefix: '!' },
    );
    expect(text).toContain('!rollback — (managers only)');
    expect(text).toContain('!deploy — (some groups only)');
    expect(text).not.toContain('3');
  });

  it('says so when there are no commands', () => {
    expect(formatHelp([])).toBe('No commands.');
  });
});

describe('formatHelp with a defined bot', () => {
  it('lists the commands of defineBot in their long form', async () => {
    const { defineBot } = await import('../../../src/bots/define-bot');
    const bot = defineBot({ commands: { status: () => undefined, deploy: { description: 'Deploys', args: ['service'], run: () => undefined } } });
    expect(formatHelp(Object.values(bot.commands))).toBe('Commands:\n/deploy <service> — Deploys\n/status');
  });

  it("names the bot in the heading when given, since every bot's comment reply has the same author", () => {
    expect(formatHelp([{ name: 'status' }], { botName: 'Ops Bot' })).toBe('Ops Bot commands:\n/status');
  });
});
