/**
 * What `intrabot --help` and `intrabot <command> --help` print: the command list by group, and for one
 * command its usage, summary, flags, examples and the environment variables it reads, wrapped to the
 * terminal's width. What each command's help says is in `help-topics.ts`.
 */
import type { CliCommand } from './command';
import { HELP_GROUPS, HELP_TOPICS, type FlagHelp } from './help-topics';

export { HELP_GROUPS, HELP_TOPICS, type FlagHelp, type HelpGroup, type HelpTopic } from './help-topics';

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

/** `  --limit N      at most N`: a flag and what it does, the texts under a common column. */
function flagLines(flags: readonly FlagHelp[], width: number): string[] {
  const shown = flags.map((f) => `${f.short ? `-${f.short}, ` : ''}--${f.name}${f.value ? ` ${f.value}` : ''}`);
  const column = Math.min(Math.max(...shown.map((s) => s.length)) + 4, 30);
  return flags.map((f, i) => {
    const head = `  ${shown[i]}`;
    // a flag wider than the column gets its text on the next line
    if (head.length + 2 > column) return `${head}\n${wrap(f.text, width, ' '.repeat(column))}`;
    return wrap(f.text, width, head.padEnd(column), ' '.repeat(column));
  });
}

/** One command's help: usage, summary, flags, examples and the environment it reads. */
export function commandHelp(command: Pick<CliCommand, 'name' | 'usage' | 'summary'>, width = 80): string {
  const topic = HELP_TOPICS[command.name];
  const parts = [wrap(command.usage, width, 'Usage: intrabot ', '         '), '', wrap(command.summary, width)];
  if (topic) {
    parts.push('', 'Options:', ...(topic.flags.length ? flagLines(topic.flags, width) : ['  none']));
    parts.push('', 'Examples:', ...topic.examples.map((example) => wrap(example, width, '  ', '      ')));
    parts.push('', 'Environment:', wrap(topic.env.length ? topic.env.join(', ') : 'none', width, '  '));
  }
  return `${parts.join('\n')}\n`;
}

/**
 * `intrabot --help`: the commands by what they are for (`HELP_GROUPS`), each with its one line, wrapped
 * under a common column. A command without a topic is listed last, with its summary.
 */
export function commandList(commands: readonly Pick<CliCommand, 'name' | 'summary'>[], width = 80): string {
  const column = Math.max(...commands.map((c) => c.name.length), 4) + 4;
  const line = (c: Pick<CliCommand, 'name' | 'summary'>): string =>
    wrap(HELP_TOPICS[c.name]?.line ?? c.summary, width, `  ${c.name}`.padEnd(column), ' '.repeat(column));
  const sections = [...HELP_GROUPS, undefined].flatMap((group) => {
    const members = commands.filter((c) => HELP_TOPICS[c.name]?.group === group);
    return members.length ? ['', `${group ?? 'Other'}:`, ...members.map(line)] : [];
  });
  return [
    'Usage: intrabot <command> [options]',
    ...sections,
    '',
    wrap(
      'intrabot help <command> (or intrabot <command> --help) shows one command: its flags, examples and the environment it reads. intrabot --version prints the version.',
      width,
    ),
    '',
  ].join('\n');
}
