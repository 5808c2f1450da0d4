import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestName } from '../did-you-mean';
import { messageOf } from './output';

type FlagOptions = NonNullable<ParseArgsConfig['options']>;

/** How every command's flags are read: positionals allowed, an unknown flag refused. */
interface FlagsConfig<O extends FlagOptions> {
  args: string[];
  options: O;
  allowPositionals: true;
  strict: true;
}

/**
 * A command's arguments as `node:util` `parseArgs` reads them (positionals allowed, an unknown flag
 * refused), or what is wrong with them as one line naming the flag, in our words: each command prints
 * it with its usage.
 *
 * @example
 * const parsed = readFlags(args, { json: { type: 'boolean' }, tenant: { type: 'string' } });
 * if (typeof parsed === 'string') return parsed;
 */
export function readFlags<const O extends FlagOptions>(args: string[], options: O): ReturnType<typeof parseArgs<FlagsConfig<O>>> | string {
  try {
    return parseArgs({ args, options, allowPositionals: true as const, strict: true as const });
  } catch (error) {
    return flagProblem(args, options) ?? messageOf(error);
  }
}

/** The first flag `parseArgs` refuses, said as we say it; undefined where none is found (node's text is used then). */
function flagProblem(args: readonly string[], options: FlagOptions): string | undefined {
  const names = Object.keys(options).map((name) => `--${name}`);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return undefined;
    if (!arg.startsWith('-') || arg === '-' || /^-\d/.test(arg)) continue;
    const long = arg.startsWith('--');
    const [flag = arg, value] = long ? splitOnce(arg) : [arg.slice(0, 2), arg.length > 2 ? arg.slice(2) : undefined];
    const name = long ? flag.slice(2) : Object.keys(options).find((n) => options[n]?.short === flag.slice(1));
    const option = name === undefined ? undefined : options[name];
    if (!option || name === undefined) {
      const close = closestName(flag, names);
      return `unknown flag ${flag}${close ? `; did you mean ${close}?` : names.length ? ` (the flags are ${names.join(', ')})` : ' (it takes no flags)'}`;
    }
    if (option.type === 'boolean') {
      if (value !== undefined) return `--${name} takes no value`;
      continue;
    }
    if (value !== undefined) continue;
    const next = args[i + 1];
    if (next === undefined) return `--${name} needs a value`;
    if (next.startsWith('-')) return `--${name} needs a value (one starting with "-" is written --${name}=${next})`;
    i++;
  }
  return undefined;
}

function splitOnce(arg: string): [string, string | undefined] {
  const at = arg.indexOf('=');
  return at < 0 ? [arg, undefined] : [arg.slice(0, at), arg.slice(at + 1)];
}
