/**
 * The `intrabot` command. Each subcommand lives in `src/cli/commands/<name>.ts` and exports
 * `command: CliCommand`; this file only finds and runs it, so commands never touch each other.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CliCommand } from './command';

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

async function listCommands(): Promise<CliCommand[]> {
  const { readdirSync } = await import('node:fs');
  const names = readdirSync(fileURLToPath(COMMANDS_DIR))
    .filter((f) => f.endsWith(EXT))
    .map((f) => f.slice(0, -EXT.length));
  const loaded = await Promise.all(names.map(loadCommand));
  return loaded.filter((c): c is CliCommand => c !== undefined).sort((a, b) => a.name.localeCompare(b.name));
}

async function usage(): Promise<string> {
  const commands = await listCommands();
  const width = Math.max(...commands.map((c) => c.usage.length), 10);
  const lines = commands.map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`);
  return ['Usage: intrabot <command> [options]', '', 'Commands:', ...lines, ''].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(await usage());
    return name ? 0 : 2;
  }
  const command = await loadCommand(name);
  if (!command) {
    process.stderr.write(`intrabot: unknown command "${name}"\n\n${await usage()}`);
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
