import { describe, expect, it } from 'vitest';
import { commandHelp, listCommands, main } from '../../src/cli/main';
import { captureIo } from './cli-io';

describe('intrabot main', () => {
  it('answers --help and -h on every command with its usage and summary, exit 0, running nothing', async () => {
    const commands = await listCommands();
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(['start', 'trigger', 'new', 'jobs', 'doctor']));
    for (const command of commands) {
      for (const flag of ['--help', '-h']) {
        const io = captureIo({});
        expect(await main([command.name, flag], io), `${command.name} ${flag}`).toBe(0);
        expect(io.out).toBe(commandHelp(command));
        expect(io.out).toContain(`Usage: intrabot ${command.usage}\n`);
        expect(io.out).toContain(command.summary);
        expect(io.err).toBe('');
      }
    }
  });

  it('shows the same usage line for a command as the command list of intrabot --help', async () => {
    const io = captureIo({});
    expect(await main(['--help'], io)).toBe(0);
    for (const command of await listCommands()) expect(io.out).toContain(`  ${command.usage}`);
  });

  it('answers help after other arguments, and for `intrabot help <command>`', async () => {
    const after = captureIo({});
    expect(await main(['trigger', 'ops', 'post.created', '--help'], after)).toBe(0);
    expect(after.out).toContain('Usage: intrabot trigger <bot>');
    const help = captureIo({});
    expect(await main(['help', 'new'], help)).toBe(0);
    expect(help.out).toContain('Usage: intrabot new <name>');
  });

  it('exits 2 naming an unknown command, with or without --help', async () => {
    for (const argv of [['nope'], ['nope', '--help'], ['help', 'nope']]) {
      const io = captureIo({});
      expect(await main(argv, io), argv.join(' ')).toBe(2);
      expect(io.err).toContain('unknown command "nope"');
    }
  });
});
