import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandOverlaps, type CommandBot } from '../../src/bots/command-overlaps';
import { parseManifest } from '../../src/bots/manifest-loader';
import type { Logger } from '../../src/log';
import { loadDeployableBots } from '../../src/runtime/build-steps';
import { loadConfig } from '../../src/runtime/config/config';

// issue #24: two bots answered one /hello; neither author could see it from their own bot
function bot(name: string, yaml: string, commands: string[] = ['hello']): CommandBot {
  const manifest = parseManifest(`name: ${name}\ndisplay_name: ${name}\n${yaml}`, `bots/${name}/bot.yaml`, {});
  return { name, manifest, definition: { commands: Object.fromEntries(commands.map((command) => [command, {}])) } };
}

const overlaps = (bots: CommandBot[], tenants = ['sandbox']) => commandOverlaps(bots, tenants).map((o) => [o.command, ...o.bots, o.walls]);

describe('commandOverlaps', () => {
  it('finds two bots without a wall filter answering the same command everywhere', () => {
    const [found] = commandOverlaps([bot('greeter', 'events: [post.created]'), bot('welcome', 'events: [post.created, comment.created]')], ['sandbox']);
    expect(found).toMatchObject({ command: 'hello', bots: ['greeter', 'welcome'], walls: 'all', tenants: ['sandbox'] });
    expect(found?.message).toBe(
      'command /hello is answered by both greeter and welcome on every wall (tenant sandbox): one /hello there runs both; rename /hello in one of them, or give their events walls that do not overlap',
    );
  });

  it('counts a bot with no wall filter as overlapping a bot that has one, on that bot’s walls', () => {
    expect(overlaps([bot('greeter', 'events: [post.created]'), bot('welcome', 'events: [{ event: post.created, walls: [3, 4] }]')])).toEqual([
      ['hello', 'greeter', 'welcome', [3, 4]],
    ]);
  });

  it('names only the walls both read, and nothing when they share none', () => {
    const on = (name: string, walls: string) => bot(name, `events: [{ event: post.created, walls: [${walls}] }]`);
    expect(overlaps([on('a', '1, 2, 3'), on('b', '3, 4')])).toEqual([['hello', 'a', 'b', [3]]]);
    expect(overlaps([on('a', '1, 2'), on('b', '3, 4')])).toEqual([]);
  });

  it('ignores different commands, a post reader beside a comment reader, and bots on different tenants', () => {
    expect(overlaps([bot('a', 'events: [post.created]', ['hello']), bot('b', 'events: [post.created]', ['status'])])).toEqual([]);
    expect(overlaps([bot('a', 'events: [post.created]'), bot('b', 'events: [comment.created]')])).toEqual([]);
    expect(overlaps([bot('a', 'events: [post.created]\ntenants: [acme]'), bot('b', 'events: [post.created]\ntenants: [globex]')], ['acme', 'globex'])).toEqual(
      [],
    );
  });

  it('lists every tenant an overlap is on', () => {
    const found = commandOverlaps([bot('a', 'events: [post.created]'), bot('b', 'events: [post.created]')], ['acme', 'globex']);
    expect(found.map((o) => o.tenants)).toEqual([['acme', 'globex']]);
    expect(found[0]?.summary).toContain('(tenants acme, globex)');
  });
});

describe('loading bots that answer the same command on the same walls', () => {
  it('logs a warning naming both bots, the command and the walls', async () => {
    const warnings: Array<{ fields: Record<string, unknown>; message: string }> = [];
    const logger: Logger = {
      debug: () => undefined,
      info: () => undefined,
      error: () => undefined,
      warn: (fields, message) => warnings.push({ fields, message }),
      child: () => logger,
    };
    // no intrabot.yaml in the fixture folder: sandbox mode, one tenant
    const config = loadConfig({ env: { INTRABOT_BOTS_DIR: resolve('test/fixtures/bots-overlap') }, cwd: resolve('test/fixtures/bots-overlap') });
    const registry = await loadDeployableBots({ config }, {}, logger, async () => undefined);
    expect(registry.bots.map((b) => b.name)).toEqual(['greeter', 'walled', 'welcome']);
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/^command \/hello is answered by both greeter and walled on wall 5 \(tenant sandbox\): /),
      expect.stringMatching(/^command \/hello is answered by both greeter and welcome on wall 3 \(tenant sandbox\): /),
    ]);
    expect(warnings[0]?.fields).toMatchObject({ bots: ['greeter', 'walled'], command: 'hello' });
  });
});
