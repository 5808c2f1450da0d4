import { parseArgs, type ParseArgsConfig } from 'node:util';
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
 * refused), or what is wrong with them as one line naming the flag: each command prints it with its usage.
 *
 * @example
 * const parsed = readFlags(args, { json: { type: 'boolean' }, tenant: { type: 'string' } });
 * if (typeof parsed === 'string') return parsed;
 */
export function readFlags<const O extends FlagOptions>(args: string[], options: O): ReturnType<typeof parseArgs<FlagsConfig<O>>> | string {
  try {
    return parseArgs({ args, options, allowPositionals: true as const, strict: true as const });
  } catch (error) {
    return messageOf(error);
  }
}
