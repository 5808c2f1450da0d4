/**
 * What `intrabot --help` and `intrabot <command> --help` print: the command list, and for one command
 * its usage, summary, examples and the environment variables it reads, wrapped to the terminal's width.
 * The examples and variables live here, beside the text they are printed in, so every command's help
 * has the same shape and a test can hold each command to it.
 */
import type { CliCommand } from './command';

/** What a command's help shows beyond its usage and summary. */
export interface HelpTopic {
  /** Command lines as a user types them (at least one). */
  examples: readonly string[];
  /** The environment variables the command reads (empty: none). */
  env: readonly string[];
}

/** What every command that reads the runtime's configuration reads (besides `intrabot.yaml`). */
const CONFIG_ENV = [
  'INTRABOT_BASE_URL',
  'INTRABOT_TOKEN',
  'INTRABOT_PORT',
  'INTRABOT_SANDBOX_PORT',
  'INTRABOT_PUBLIC_URL',
  'INTRABOT_DATA_DIR',
  'INTRABOT_BOTS_DIR',
  'INTRABOT_REDIS_URL',
  'INTRABOT_REDIS_PREFIX',
  'INTRABOT_SECRET_KEY',
  'INTRABOT_ADMIN_TOKEN',
  'INTRABOT_LOG_LEVEL',
  'INTRABOT_LOG_FORMAT',
  'INTRABOT_HOST',
] as const;

export const HELP_TOPICS: Readonly<Record<string, HelpTopic>> = {
  api: {
    examples: ['intrabot api GET /users --paginate', 'intrabot api POST /posts --data \'{"wall_id": 1, "body": "Hello"}\''],
    env: ['INTRABOT_BASE_URL', 'INTRABOT_TOKEN', 'INTRABOT_SANDBOX_PORT'],
  },
  bots: {
    examples: [
      'intrabot bots pause kudos --reason "posting twice"',
      'intrabot bots resume kudos',
      'intrabot bots resume kudos --tenant acme --discard',
      'intrabot bots paused',
    ],
    env: ['INTRABOT_PORT', 'INTRABOT_ADMIN_TOKEN'],
  },
  conformance: {
    examples: ['intrabot conformance', 'intrabot conformance --base-url https://acme.example.com --token "$TOKEN" --json'],
    env: ['INTRABOT_BASE_URL', 'INTRABOT_TOKEN'],
  },
  deliveries: { examples: ['intrabot deliveries --dead', 'intrabot deliveries replay 01J9ZK3T6Q'], env: CONFIG_ENV },
  dev: { examples: ['intrabot dev', 'intrabot dev --poll'], env: CONFIG_ENV },
  doctor: { examples: ['intrabot doctor', 'intrabot doctor --json'], env: CONFIG_ENV },
  init: { examples: ['intrabot init my-bots'], env: [] },
  jobs: { examples: ['intrabot jobs', 'intrabot jobs --runs 5 --json'], env: CONFIG_ENV },
  new: { examples: ['intrabot new standup'], env: ['INTRABOT_BOTS_DIR'] },
  openapi: { examples: ['intrabot openapi --server-url https://acme.example.com > openapi.json'], env: [] },
  outbox: { examples: ['intrabot outbox dead', 'intrabot outbox retry 42'], env: CONFIG_ENV },
  provision: { examples: ['intrabot provision --dry-run', 'intrabot provision'], env: CONFIG_ENV },
  'rotate-secret': {
    examples: ['intrabot rotate-secret kudos', 'intrabot rotate-secret alerts --tenant acme', 'intrabot rotate-secret --status'],
    env: CONFIG_ENV,
  },
  run: { examples: ['intrabot run birthday greet', 'intrabot run todo-digest digest --tenant acme --wait 60'], env: CONFIG_ENV },
  sandbox: { examples: ['intrabot sandbox', 'intrabot sandbox --seed large --users 500'], env: ['INTRABOT_SANDBOX_PORT'] },
  start: { examples: ['intrabot start', 'INTRABOT_BASE_URL=https://acme.example.com INTRABOT_TOKEN=... intrabot start'], env: CONFIG_ENV },
  trigger: { examples: ['intrabot trigger ops post.created', 'intrabot trigger kudos achievement.awarded --payload awarded.json'], env: CONFIG_ENV },
};

/** The width help is wrapped to: the terminal's, else 80 (a pipe, a file). */
export function helpWidth(columns: number | undefined): number {
  return columns !== undefined && columns >= 40 ? columns : 80;
}

/**
 * `text` broken at spaces into lines of at most `width` characters (a word longer than that keeps its
 * own line): the first after `indent`, the others after `hanging` (default: as many spaces).
 *
 * @example wrap('a b c', 5, '> ') // => '> a b\n  c'
 */
export function wrap(text: string, width: number, indent = '', hanging = indent.replace(/./g, ' ')): string {
  const lines: string[] = [];
  let line = indent;
  let empty = true;
  for (const word of text.split(/ +/).filter(Boolean)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = hanging + word;
    } else {
      line = empty ? line + word : `${line} ${word}`;
    }
    empty = false;
  }
  lines.push(line);
  return lines.join('\n');
}

/** One command's help: usage, summary, examples and the environment it reads. */
export function commandHelp(command: Pick<CliCommand, 'name' | 'usage' | 'summary'>, width = 80): string {
  const topic = HELP_TOPICS[command.name];
  const parts = [wrap(command.usage, width, 'Usage: intrabot ', '         '), '', wrap(command.summary, width)];
  if (topic) {
    parts.push('', 'Examples:', ...topic.examples.map((example) => wrap(example, width, '  ', '      ')));
    parts.push('', 'Environment:', wrap(topic.env.length ? topic.env.join(', ') : 'none', width, '  '));
  }
  return `${parts.join('\n')}\n`;
}

/** `intrabot --help`: every command by name with its summary, wrapped under a common column. */
export function commandList(commands: readonly Pick<CliCommand, 'name' | 'summary'>[], width = 80): string {
  const column = Math.max(...commands.map((c) => c.name.length), 4) + 4;
  const lines = commands.map((c) => wrap(c.summary, width, `  ${c.name}`.padEnd(column), ' '.repeat(column)));
  return [
    'Usage: intrabot <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    wrap('intrabot <command> --help shows one command, with examples and the environment it reads. intrabot --version prints the version.', width),
    '',
  ].join('\n');
}
