/**
 * Markdown (CommonMark and GitHub's common extensions) as the plain text of a post: the platform's
 * bodies are plain text (spec: Posts, `body`), so markup a reader would see as noise is turned into
 * what it means. Headings become `■ Heading`, list items `•` (nested ones indented), task items `☐`
 * and `☑`, links `text (url)`, images `alt (url)`, code blocks lines indented by four spaces without
 * their fences, inline code and emphasis their text, quotes `│ `, rules a line, tables their rows
 * without the separator, HTML tags and comments dropped (`<br>` a line break). Text that is not
 * markup, `@` signs included, is left as it is: neutralising mentions is the caller's business.
 *
 * @example markdownToText('## Fixes\n- **Login** works again ([#12](https://example.com/12))')
 * // => '■ Fixes\n• Login works again (#12 (https://example.com/12))'
 */
export function markdownToText(markdown: string): string {
  const lines = stripHtmlComments(markdown.replace(/\r\n?/g, '\n')).split('\n');
  const references = referenceDefinitions(lines);
  const out: string[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (fenceMark !== undefined && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = undefined;
      else out.push(`    ${line}`);
      continue;
    }
    if (fenceMark !== undefined) {
      fence = fenceMark;
      continue;
    }
    const next = lines[i + 1];
    if (next !== undefined && line.trim() !== '' && /^\s{0,3}(=+|-+)\s*$/.test(next) && !isListItem(line)) {
      out.push(`■ ${inline(line.trim(), references)}`); // a setext heading: the text, then === or ---
      i++;
      continue;
    }
    out.push(...blockLine(line, references));
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const REFERENCE = /^\s{0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+["'(].*["')])?\s*$/;

function stripHtmlComments(text: string): string {
  return text.replace(/<!--[\s\S]*?-->/g, '');
}

/** `[label]: url` lines: read for reference links, and left out of the text. */
function referenceDefinitions(lines: string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of lines) {
    const match = REFERENCE.exec(line);
    if (match) found.set(match[1]!.toLowerCase(), match[2]!);
  }
  return found;
}

function isListItem(line: string): boolean {
  return /^\s*([-*+]|\d{1,9}[.)])\s+/.test(line);
}

/** One line outside a code block, as zero or more lines of text. */
function blockLine(line: string, references: Map<string, string>): string[] {
  if (REFERENCE.test(line)) return [];
  if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) return ['──────────'];
  const heading = /^\s{0,3}#{1,6}\s+(.*?)(\s+#+)?\s*$/.exec(line);
  if (heading) return ['', `■ ${inline(heading[1]!, references)}`];
  const quote = /^\s{0,3}>\s?(.*)$/.exec(line);
  if (quote) return blockLine(quote[1]!, references).map((l) => `│ ${l}`);
  if (/^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(line) && line.includes('-') && line.includes('|')) return [];
  if (/^\s*\|.*\|\s*$/.test(line)) return [tableRow(line, references)];
  const item = /^(\s*)([-*+]|\d{1,9}[.)])\s+(?:\[([ xX])\]\s+)?(.*)$/.exec(line);
  if (item) {
    const depth = Math.floor(item[1]!.replace(/\t/g, '    ').length / 2);
    const bullet = item[3] !== undefined ? (item[3] === ' ' ? '☐' : '☑') : /\d/.test(item[2]!) ? item[2]!.replace(')', '.') : '•';
    return [`${'  '.repeat(depth)}${bullet} ${inline(item[4]!, references)}`];
  }
  if (/^( {4}|\t)/.test(line) && line.trim() !== '') return [`    ${line.replace(/^( {4}|\t)/, '')}`];
  return [inline(line.trim(), references)];
}

function tableRow(line: string, references: Map<string, string>): string {
  const cells = line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|');
  return cells.map((cell) => inline(cell.trim(), references)).join(' | ');
}

/** Inline markup of one line: code spans kept as they are, links and emphasis made text. */
function inline(text: string, references: Map<string, string>): string {
  const kept: string[] = [];
  // private-use characters mark where kept text goes back (code spans, escaped characters), so nothing below reads inside it
  const keep = (literal: string) => `\ue000${kept.push(literal) - 1}\ue001`;
  let s = text.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) => keep(code.trim()));
  s = s.replace(/\\([\\`*_{}[\]()#+\-.!|>~<])/g, (_, char: string) => keep(char));
  s = s.replace(/<br\s*\/?>/gi, '\n').replace(/<\u200b?\/?[A-Za-z][A-Za-z0-9-]*(\s[^<>]*)?\/?>/g, '');
  s = s.replace(/!\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+["'][^)]*["'])?\s*\)/g, (_, alt: string, url: string) => (alt ? `${alt} (${url})` : url));
  s = s.replace(/\[([^\]]+)\]\(\s*<?([^)\s>]+)>?(?:\s+["'][^)]*["'])?\s*\)/g, (_, label: string, url: string) => linkText(label, url));
  s = s.replace(/\[([^\]]+)\]\[([^\]]*)\]/g, (whole, label: string, ref: string) => {
    const url = references.get((ref || label).toLowerCase());
    return url === undefined ? whole : linkText(label, url);
  });
  s = s.replace(/<\u200b?((?:https?|mailto):[^>\s]+)>/g, '$1');
  s = s.replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2');
  s = s.replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1');
  s = s.replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?![\w*])/g, '$1$2');
  s = s.replace(/(^|[^\w])_(?=\S)([^_]*?\S)_(?!\w)/g, '$1$2');
  return s.replace(/\ue000(\d+)\ue001/g, (_, index: string) => kept[Number(index)] ?? '');
}

function linkText(label: string, url: string): string {
  return label === url || `mailto:${label}` === url ? url : `${label} (${url})`;
}
