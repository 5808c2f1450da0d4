import { tokenize, type Token } from './tokenize';

/** A recognised command: `/deploy api --env=prod` gives `{ name: 'deploy', args: ['api'], flags: { env: 'prod' } }`. */
export interface ParsedCommand {
  /** Lower-case command name. */
  name: string;
  args: string[];
  flags: Record<string, string | boolean>;
  /** The text after the command name, untouched (for free-text commands such as `/say`). */
  argText: string;
  /** The whole message as received. */
  raw: string;
}

export interface ParseCommandOptions {
  /** The bot's display name, as mentioned with `@`; matched case-insensitively. */
  botName: string;
  /** Default `/`. */
  prefix?: string;
}

const NAME = /^([A-Za-z][\w-]*)(?=\s|$)/;
const DASHES = /^(?:--|—|–)/; // phones turn "--" into an em or en dash

/**
 * Recognises a command at the start of a post or comment: `/status api` or `@Bot Name status api`
 * (the bot's display name, any case; a bare mention asks for `help`). Anything else is `null`.
 *
 * @example parseCommand('@Ops Bot deploy "web app" --env prod', { botName: 'Ops Bot' })
 * // => { name: 'deploy', args: ['web app'], flags: { env: 'prod' }, ... }
 */
export function parseCommand(text: string, options: ParseCommandOptions): ParsedCommand | null {
  const prefix = options.prefix ?? '/';
  const trimmed = text.trim();
  let rest: string | undefined;
  if (prefix && trimmed.startsWith(prefix)) rest = trimmed.slice(prefix.length);
  else rest = afterMention(trimmed, options.botName, prefix);
  if (rest === undefined) return null;
  if (rest === '') return { name: 'help', args: [], flags: {}, argText: '', raw: text };
  const match = NAME.exec(rest);
  if (!match?.[1]) return null;
  const argText = rest.slice(match[1].length).trim();
  return { name: match[1].toLowerCase(), ...splitArgs(tokenize(argText)), argText, raw: text };
}

/** The text after a leading `@<botName>`, or `undefined` when the message does not start with it. */
function afterMention(text: string, botName: string, prefix: string): string | undefined {
  const name = botName.trim();
  if (!name || !text.startsWith('@')) return undefined;
  const head = text.slice(1, 1 + name.length);
  if (head.toLowerCase() !== name.toLowerCase()) return undefined;
  const after = text.slice(1 + name.length);
  // "@Ops Botany" is not a mention of "Ops Bot"
  if (after !== '' && !/^[\s:,]/.test(after)) return undefined;
  const rest = after.replace(/^[:,]?\s*/, '');
  return prefix && rest.startsWith(prefix) ? rest.slice(prefix.length) : rest;
}

/** `--flag`, `--key=value` and `--key value`; a bare `--` ends the flags. */
function splitArgs(tokens: Token[]): Pick<ParsedCommand, 'args' | 'flags'> {
  const args: string[] = [];
  const flags: Record<string, string | boolean> = {};
  let flagsDone = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    const dashes = DASHES.exec(token.text);
    if (flagsDone || token.quoted || !dashes) {
      args.push(token.text);
      continue;
    }
    const body = token.text.slice(dashes[0].length);
    if (body === '') {
      flagsDone = true;
      continue;
    }
    const eq = body.indexOf('=');
    if (eq > 0) {
      flags[body.slice(0, eq)] = body.slice(eq + 1);
      continue;
    }
    const next = tokens[i + 1];
    const nextIsValue = next !== undefined && (next.quoted || !DASHES.test(next.text));
    flags[body] = nextIsValue ? next.text : true;
    if (nextIsValue) i++;
  }
  return { args, flags };
}
