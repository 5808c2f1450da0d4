import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botTemplateNames, renamedFile } from '../../src/cli/bot-templates';
import { runNew } from '../../src/cli/commands/new';
import { loadBots } from '../../src/bots/registry';
import { testBot } from '../../src/testing';
import { captureIo } from './cli-io';

describe('intrabot new <name> --from <example bot>', () => {
  let tmp: string;
  let botsDir: string;

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'intrabot-cli-new-from-'));
    botsDir = join(tmp, 'bots');
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('copies the example with its templates and tests, renamed, and says what to do next', async () => {
    const io = captureIo({ INTRABOT_BOTS_DIR: botsDir }, tmp);
    expect(await runNew(['cheers', '--from', 'birthday'], io)).toBe(0);
    for (const file of ['bot.yaml', 'index.ts', 'birthday.test.ts', 'README.md']) expect(existsSync(join(botsDir, 'cheers', file)), file).toBe(true);
    expect(io.out).toContain('created bots/cheers/');
    expect(io.out).toContain('# its tests, as they ran for birthday');
    const manifest = readFileSync(join(botsDir, 'cheers', 'bot.yaml'), 'utf8');
    expect(manifest).toMatch(/^name: cheers$/m);
    expect(manifest).not.toMatch(/^example:/m);
    expect(manifest).not.toContain('# an example:');
    const test = readFileSync(join(botsDir, 'cheers', 'birthday.test.ts'), 'utf8');
    expect(test).toContain("bots: ['cheers']");
    expect(test).not.toContain("'birthday'");
  });

  it('makes a bot the runtime loads under its new name, no longer an example', async () => {
    const { bots, failures } = await loadBots(botsDir, process.env, ['cheers']);
    expect(failures).toEqual([]);
    expect(bots).toEqual([expect.objectContaining({ name: 'cheers', manifest: expect.objectContaining({ example: false }) })]);
    const cheers = await testBot(join(botsDir, 'cheers'));
    expect(cheers.name).toBe('cheers');
  });

  it('copies the feeds example with its feed fixtures, its images byte for byte, and its HTTP test naming the new bot', async () => {
    const io = captureIo({ INTRABOT_BOTS_DIR: botsDir }, tmp);
    expect(await runNew(['news', '--from', 'feeds'], io)).toBe(0);
    const image = 'fixtures/images/search.png';
    expect(readFileSync(join(botsDir, 'news', image)).equals(readFileSync(new URL(`../../bots/feeds/${image}`, import.meta.url)))).toBe(true);
    for (const file of ['feed-server.ts', 'fixtures/rss2.xml', 'fixtures/README.md', 'templates/item.hbs'])
      expect(existsSync(join(botsDir, 'news', file)), file).toBe(true);
    expect(readFileSync(join(botsDir, 'news', 'feeds-http.test.ts'), 'utf8')).toContain("const BOT = 'news';");
  });

  it('copies the calendar example with its ICS fixtures, byte for byte (CRLF lines), and its HTTP test naming the new bot', async () => {
    const io = captureIo({ INTRABOT_BOTS_DIR: botsDir }, tmp);
    expect(await runNew(['rota', '--from', 'calendar'], io)).toBe(0);
    const ics = 'fixtures/team.ics';
    expect(readFileSync(join(botsDir, 'rota', ics)).equals(readFileSync(new URL(`../../bots/calendar/${ics}`, import.meta.url)))).toBe(true);
    expect(readFileSync(join(botsDir, 'rota', 'calendar-http.test.ts'), 'utf8')).toContain("const BOT = 'rota';");
  });

  it('refuses an example it does not have, naming those it has, and writes nothing', async () => {
    const io = captureIo({ INTRABOT_BOTS_DIR: botsDir }, tmp);
    expect(await runNew(['other', '--from', 'nope'], io)).toBe(2);
    expect(io.err).toContain('no example bot "nope" to start from (there are: ');
    expect(io.err).toContain('birthday');
    expect(existsSync(join(botsDir, 'other'))).toBe(false);
  });

  it('refuses to copy over a bot folder that exists', async () => {
    const io = captureIo({ INTRABOT_BOTS_DIR: botsDir }, tmp);
    expect(await runNew(['cheers', '--from', 'welcome'], io)).toBe(2);
    expect(io.err).toContain('already exists');
  });

  it('offers every example bot of the repository as a template', () => {
    expect(botTemplateNames()).toEqual(expect.arrayContaining(['anniversary', 'birthday', 'kudos', 'ops', 'welcome']));
  });
});

describe('a template renamed', () => {
  it('names the manifest after the new bot and drops the example flag with its comment, leaving the rest', () => {
    const yaml = '# Greets.\nname: birthday\ndisplay_name: Birthday Bot\n# an example: runs in sandbox mode\nexample: true\nevents: []\n';
    expect(renamedFile('bot.yaml', yaml, 'birthday', 'cheers')).toBe('# Greets.\nname: cheers\ndisplay_name: Birthday Bot\nevents: []\n');
  });

  it('renames the bot where its tests name it as a string, and leaves its code alone', () => {
    expect(renamedFile('x.test.ts', "startPair({ bots: ['birthday'] }); pair.runJob(\"birthday\", 'greet')", 'birthday', 'cheers')).toBe(
      "startPair({ bots: ['cheers'] }); pair.runJob(\"cheers\", 'greet')",
    );
    expect(renamedFile('index.ts', "kind: 'birthday'", 'birthday', 'cheers')).toBe("kind: 'birthday'");
  });
});
