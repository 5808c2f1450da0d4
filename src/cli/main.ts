/**
 * The `intrabot` command. Each subcommand lives in `src/cli/commands/<name>.ts` and exports
 * `command: CliCommand`; this file only finds and runs it, so commands never touch each other, and
 * answers `--help` for every command from the usage and summary the command declares.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { INTRABOT_VERSION } from '../api/version';
import type { CliCommand } from './command';
import { didYouMean } from '../did-you-mean';
import { commandHelp, commandList, helpWidth, HELP_TOPICS } from './command-help';
import { unknownFlag } from './flag-check';
import { processIo, type CliIo } from './output';

const COMMANDS_DIR = new URL('./commands/', import.meta.url);
/** Commands are `.ts` when run from source (tsx), `.js` when run from a build (bin/build.mjs). */
const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

async function loadCommand(name: string): Promise<CliCommand | undefined> {
  if (!/^[a-z][a-z-]*$/.test(name)) return undefined;
  const file = new URL(`${name}${EXT}`, COMMANDS_DIR);
  if (!existsSync(fileURLToPath(file))) return undefined;
  const mod = (await import(file.href)) as { command?: CliCommand };
  return mod.command;
}

/** Every command, by name. */
export async function listCommands(): Promise<CliCommand[]> {
  const { readdirSync } = await import('node:fs');
  const names = readdirSync(fileURLToPath(COMMANDS_DIR))
    .filter((f) => f.endsWith(EXT))
    .map((f) => f.slice(0, -EXT.length));
  const loaded = await Promise.all(names.map(loadCommand));
  return loaded.filter((c): c is CliCommand => c !== undefined).sort((a, b) => a.name.localeCompare(b.name));
}

async function usage(width: number): Promise<string> {
  return commandList(await listCommands(), width);
}

export { commandHelp } from './command-help';

const HELP_FLAGS = new Set(['--help', '-h']);

/** `--help` or `-h` among a command's arguments, before any `--` (after it, arguments are taken as they are). */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((arg) => HELP_FLAGS.has(arg));
}

/** Where `main` writes its own output (usage, help, version); commands write their own. */
export type MainIo = Pick<CliIo, 'stdout' | 'stderr'> & {
  /** The terminal's width, help is wrapped to (default: stdout's columns, else 80). */
  columns?: number;
};

const VERSION_FLAGS = new Set(['--version', '-v']);

/**
 * Runs `intrabot <argv>`; resolves to the exit code. `intrabot <command> --help` (or `-h`, or
 * `intrabot help <command>`) answers the command's help here, so no command parses it itself.
 */
export async function main(argv: string[], io: MainIo = processIo()): Promise<number> {
  const [first, ...rest] = argv;
  const width = helpWidth(io.columns ?? process.stdout.columns);
  if (first !== undefined && VERSION_FLAGS.has(first)) {
    io.stdout(`intrabot ${INTRABOT_VERSION}\n`);
    return 0;
  }
  const helpOnly = first === 'help' || (first !== undefined && HELP_FLAGS.has(first));
  const name = helpOnly ? rest[0] : first;
  if (!name) {
    io.stdout(await usage(width));
    return first ? 0 : 2;
  }
  const command = await loadCommand(name);
  if (!command) {
    const close = didYouMean(
      name,
      (await listCommands()).map((c) => c.name),
    );
    // a typo needs only the name it is close to; anything else, the list to choose from
    io.stderr(
      close
        ? `intrabot: unknown command "${name}"${close}; intrabot help lists the commands\n`
        : `intrabot: unknown command "${name}"\n\n${await usage(width)}`,
    );
    return 2;
  }
  if (helpOnly || asksForHelp(rest)) {
    io.stdout(commandHelp(command, width));
    return 0;
  }
  // every command's flags are checked here, against its help, so a wrong one is said the same way everywhere
  const topic = HELP_TOPICS[command.name];
  const wrongFlag = topic ? unknownFlag(command.name, rest, topic.flags) : undefined;
  if (wrongFlag) {
    io.stderr(`intrabot: ${wrongFlag}\n`);
    return 2;
  }
  return command.run(rest);
}

// `tsx src/cli/main.ts ...` (npm run intrabot); bin/intrabot.mjs imports `main` and calls it itself
const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`intrabot: ${message}\n`);
      process.exitCode = 1;
    },
  );
}
