import { CommandInfoSchema, type CommandArg, type CommandInfo } from './command-spec';

/**
 * A plain-text list of commands, sorted by name: `/deploy <service> [env] — Deploys a service`,
 * headed `<bot name> commands:` when `botName` is given.
 * Required arguments are in `<>`, optional ones in `[]`; restricted commands say who may run them.
 *
 * @example formatHelp([{ name: 'status', description: 'Shows service health' }])
 * // => 'Commands:\n/status — Shows service health'
 */
export function formatHelp(commands: readonly CommandInfo[], options: { prefix?: string; botName?: string } = {}): string {
  const prefix = options.prefix ?? '/';
  const parsed = commands.map((command) => CommandInfoSchema.parse(command)).sort((a, b) => a.name.localeCompare(b.name));
  if (parsed.length === 0) return 'No commands.';
  const lines = parsed.map((command) => {
    const usage = [`${prefix}${command.name}`, ...command.args.map(formatArg)].join(' ');
    const notes = [command.description, restriction(command.permissions)].filter(Boolean).join(' ');
    return notes ? `${usage} — ${notes}` : usage;
  });
  // a comment reply is the token user's on every bot: the heading says which bot answers
  return [options.botName ? `${options.botName} commands:` : 'Commands:', ...lines].join('\n');
}

function formatArg(arg: CommandArg): string {
  return arg.required ? `<${arg.name}>` : `[${arg.name}]`;
}

function restriction(permissions: CommandInfo['permissions']): string {
  if (!permissions) return '';
  if (permissions.managers && permissions.groups) return '(managers of some groups only)';
  if (permissions.managers) return '(managers only)';
  if (permissions.groups) return '(some groups only)';
  return '';
}
