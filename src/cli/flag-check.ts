import { closestName } from '../did-you-mean';
import type { FlagHelp } from './help-topics';

/** `--help` and `-h` are main's: every command takes them. */
const HELP_FLAGS = new Set(['--help', '-h']);

/** The flag an argument names (`--limit=5` names `--limit`), or undefined for a positional. */
function flagOf(arg: string): string | undefined {
  if (arg.startsWith('--') && arg.length > 2) return arg.split('=')[0];
  // `-5` and `-` are values, not flags
  if (/^-[a-zA-Z]/.test(arg)) return arg.slice(0, 2);
  return undefined;
}

function find(flags: readonly FlagHelp[], flag: string): FlagHelp | undefined {
  return flag.startsWith('--') ? flags.find((f) => `--${f.name}` === flag) : flags.find((f) => f.short !== undefined && `-${f.short}` === flag);
}

/** Whether the argument after `arg` is its value (`--limit 5`, `-p 4010`; not `--limit=5` or `-p4010`). */
function takesNext(arg: string, flag: FlagHelp): boolean {
  return flag.value !== undefined && !arg.includes('=') && (arg.startsWith('--') || arg.length === 2);
}

/**
 * What is wrong with a command's flags, in our words, or undefined: the first flag the command does not
 * take, with the closest one it does, and where its help is. Arguments after `--` are not looked at.
 *
 * @example
 * unknownFlag('outbox', ['--jsno'], HELP_TOPICS.outbox.flags)
 * // => 'unknown flag --jsno for "intrabot outbox"; did you mean --json? See intrabot help outbox'
 */
export function unknownFlag(command: string, args: readonly string[], flags: readonly FlagHelp[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return undefined;
    const flag = flagOf(arg);
    if (flag === undefined || HELP_FLAGS.has(flag)) continue;
    const known = find(flags, flag);
    if (known) {
      if (takesNext(arg, known)) i++;
      continue;
    }
    return `unknown flag ${flag} for "intrabot ${command}"; ${hint(flag, flags)}See intrabot help ${command}`;
  }
  return undefined;
}

function hint(flag: string, flags: readonly FlagHelp[]): string {
  if (flags.length === 0) return 'it takes no flags. ';
  const names = flags.map((f) => `--${f.name}`);
  const close = closestName(flag, names);
  return close ? `did you mean ${close}? ` : `its flags are ${names.join(', ')}. `;
}
