import { describe, expect, it } from 'vitest';
import { INTRABOT_VERSION } from '../../src/api/version';
import { HELP_GROUPS, HELP_TOPICS, helpWidth, wrap } from '../../src/cli/command-help';
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

  it('lists the commands by what they are for, each in one group on one line at 80 columns', async () => {
    const io = ioOf();
    expect(await main(['help'], io)).toBe(0);
    const lines = io.out.split('\n');
    const headings = lines.filter((l) => /^\S.*:$/.test(l));
    expect(headings).toEqual(HELP_GROUPS.map((g) => `${g}:`));
    for (const command of await listCommands()) {
      const rows = lines.filter((l) => l.startsWith(`  ${command.name} `));
      expect(rows, command.name).toHaveLength(1);
      expect(rows[0]!.length, command.name).toBeLessThanOrEqual(80);
      // the line under its group's heading, before the next heading
      const group = HELP_TOPICS[command.name]!.group;
      const at = lines.indexOf(rows[0]!);
      expect(
        lines
          .slice(0, at)
          .filter((l) => headings.includes(l))
          .at(-1),
        command.name,
      ).toBe(`${group}:`);
    }
    const flag = ioOf();
    expect(await main(['--help'], flag)).toBe(0);
    expect(flag.out).toBe(io.out);
  });

  it('prints the same help for `intrabot help <command>` and `intrabot <command> --help`', async () => {
    for (const command of await listCommands()) {
      const help = ioOf();
      const flag = ioOf();
      expect(await main(['help', command.name], help)).toBe(0);
      expect(await main([command.name, '--help'], flag)).toBe(0);
      expect(help.out, command.name).toBe(flag.out);
    }
  });

  it("describes each flag of a command's usage in its help, and no flag its usage does not name", async () => {
    for (const command of await listCommands()) {
      const inUsage = [...new Set([...command.usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]))].sort();
      const described = HELP_TOPICS[command.name]!.flags.map((f) => f.name).sort();
      expect(described, command.name).toEqual(inUsage);
      const io = ioOf();
      await main([command.name, '--help'], io);
      const options = io.out.slice(io.out.indexOf('Options:\n'), io.out.indexOf('\nExamples:'));
      for (const flag of HELP_TOPICS[command.name]!.flags) expect(options, `${command.name} --${flag.name}`).toMatch(new RegExp(`--${flag.name}\\b.*\\S`));
    }
  });

  it('suggests the command a mistyped one is closest to, exit 2', async () => {
    for (const argv of [['outbx'], ['help', 'delivries']]) {
      const io = ioOf();
      expect(await main(argv, io), argv.join(' ')).toBe(2);
      expect(io.err).toMatch(/^intrabot: unknown command "\w+" \(did you mean "(outbox|deliveries)"\?\); intrabot help lists the commands\n$/);
    }
  });

  it('refuses an unknown flag in its own words, with the closest flag and where the help is, exit 2, running nothing', async () => {
    const typo = ioOf();
    expect(await main(['outbox', '--jsno'], typo)).toBe(2);
    expect(typo.err).toBe('intrabot: unknown flag --jsno for "intrabot outbox"; did you mean --json? See intrabot help outbox\n');
    expect(typo.out).toBe('');
    const far = ioOf();
    expect(await main(['outbox', 'list', '--foo'], far)).toBe(2);
    expect(far.err).toBe('intrabot: unknown flag --foo for "intrabot outbox"; its flags are --target, --limit, --json. See intrabot help outbox\n');
    const none = ioOf();
    expect(await main(['new', 'standup', '--port=4000'], none)).toBe(2);
    expect(none.err).toBe('intrabot: unknown flag --port for "intrabot new"; its flags are --from. See intrabot help new\n');
    const start = ioOf();
    expect(await main(['start', '--port=4000'], start)).toBe(2);
    expect(start.err).toBe('intrabot: unknown flag --port for "intrabot start"; its flags are --no-migrate. See intrabot help start\n');
    const short = ioOf();
    expect(await main(['sandbox', '-p', '4010', '-x'], short)).toBe(2);
    expect(short.err).toContain('unknown flag -x for "intrabot sandbox"');
  });

  it("takes a flag's value as a value, and leaves what follows -- alone", async () => {
    const { unknownFlag } = await import('../../src/cli/flag-check');
    const flags = HELP_TOPICS.api!.flags;
    expect(unknownFlag('api', ['POST', '/posts', '--data', '--not-a-flag'], flags)).toBeUndefined();
    expect(unknownFlag('api', ['POST', '/posts', '-d', '-x', '--paginate'], flags)).toBeUndefined();
    expect(unknownFlag('api', ['GET', '/users', '--', '--anything'], flags)).toBeUndefined();
    expect(unknownFlag('api', ['GET', '/users', '--data={}', '--pagiante'], flags)).toContain('did you mean --paginate?');
    expect(unknownFlag('run', ['ops', 'sync', '-5'], HELP_TOPICS.run!.flags)).toBeUndefined();
  });
});
