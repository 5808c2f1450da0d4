import { describe, expect, it } from 'vitest';
import { INTRABOT_VERSION } from '../../src/api/version';
import { HELP_TOPICS, helpWidth, wrap } from '../../src/cli/command-help';
import { commandHelp, listCommands, main } from '../../src/cli/main';
import { captureIo } from './cli-io';

/** A captured io on a terminal `columns` wide. */
const ioOf = (columns = 80) => Object.assign(captureIo({}), { columns });

describe('intrabot main', () => {
  it('answers --help and -h on every command with its usage and summary, exit 0, running nothing', async () => {
    const commands = await listCommands();
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(['start', 'trigger', 'new', 'jobs', 'doctor']));
    for (const command of commands) {
      for (const flag of ['--help', '-h']) {
        const io = ioOf(400);
        expect(await main([command.name, flag], io), `${command.name} ${flag}`).toBe(0);
        expect(io.out).toBe(commandHelp(command, 400));
        expect(io.out).toContain(`Usage: intrabot ${command.usage}\n`);
        expect(io.out).toContain(command.summary);
        expect(io.err).toBe('');
      }
    }
  });

  // issue #15, item 4: help lines up to 228 characters wide, no examples
  it("gives every command's help an example and the environment variables it reads, wrapped to the terminal", async () => {
    for (const command of await listCommands()) {
      const topic = HELP_TOPICS[command.name];
      expect(topic?.examples.length, command.name).toBeGreaterThan(0);
      for (const example of topic!.examples) expect(example.startsWith(`intrabot ${command.name}`) || example.includes(` intrabot ${command.name}`)).toBe(true);
      for (const columns of [60, 80]) {
        const io = ioOf(columns);
        expect(await main([command.name, '--help'], io)).toBe(0);
        expect(io.out).toContain('Examples:\n  intrabot');
        expect(io.out).toMatch(/\nEnvironment:\n {2}(none|INTRABOT_)/);
        for (const line of io.out.split('\n')) expect(line.length, `${command.name} at ${columns}: ${line}`).toBeLessThanOrEqual(columns);
      }
    }
    const run = ioOf();
    await main(['run', '--help'], run);
    expect(run.out).toMatch(/INTRABOT_PORT,[\s\S]*INTRABOT_ADMIN_TOKEN/);
  });

  it('wraps the command list to the terminal, 80 columns when there is none', async () => {
    const narrow = ioOf(60);
    expect(await main(['--help'], narrow)).toBe(0);
    for (const line of narrow.out.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
    for (const command of await listCommands()) expect(narrow.out).toMatch(new RegExp(`\\n {2}${command.name} +\\S`));
    expect(helpWidth(undefined)).toBe(80);
    expect(helpWidth(132)).toBe(132);
  });

  it('breaks lines at spaces, keeping a word longer than the width whole', () => {
    expect(wrap('one two three', 9, '> ')).toBe('> one two\n  three');
    expect(wrap('a verylongword b', 6)).toBe('a\nverylongword\nb');
  });

  it('prints the version with --version and -v', async () => {
    for (const flag of ['--version', '-v']) {
      const io = ioOf();
      expect(await main([flag], io)).toBe(0);
      expect(io.out).toBe(`intrabot ${INTRABOT_VERSION}\n`);
    }
    expect(INTRABOT_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('answers help after other arguments, and for `intrabot help <command>`', async () => {
    const after = ioOf();
    expect(await main(['trigger', 'ops', 'post.created', '--help'], after)).toBe(0);
    expect(after.out).toContain('Usage: intrabot trigger <bot>');
    const help = ioOf();
    expect(await main(['help', 'new'], help)).toBe(0);
    expect(help.out).toContain('Usage: intrabot new <name>');
  });

  it('exits 2 naming an unknown command, with or without --help', async () => {
    for (const argv of [['nope'], ['nope', '--help'], ['help', 'nope']]) {
      const io = ioOf();
      expect(await main(argv, io), argv.join(' ')).toBe(2);
      expect(io.err).toContain('unknown command "nope"');
    }
  });
});
