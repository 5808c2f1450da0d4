import { parseArgs, type ParseArgsConfig } from 'node:util';
import { messageOf } from './output';

/**
 * A command's arguments as `node:util` `parseArgs` reads them (positionals allowed, an unknown flag
 * refused), or what is wrong with them as one line naming the flag: each command prints it with its usage.
 *
 * @example
 * const parsed = readFlags(args, { json: { type: 'boolean' }, tenant: { type: 'string' } });
 * if (typeof parsed === 'string') return parsed;
 */
export function readFlags<const O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true as const, strict: true as const });
  } catch (error) {
    return messageOf(error);
  }
}
