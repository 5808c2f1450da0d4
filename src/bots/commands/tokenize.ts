/** One word of a command line; `quoted` words are never read as flags. */
export interface Token {
  text: string;
  quoted: boolean;
}

// phone keyboards turn quotes into curly ones; both close the quote they open
const QUOTE_PAIRS: Readonly<Record<string, string>> = { '"': '"', "'": "'", '“': '”', '”': '”', '‘': '’', '’': '’' };

/**
 * Splits a command line into words: whitespace separates, `"two words"` and `'single'` group, and
 * a backslash escapes the next character inside double quotes. An unclosed quote runs to the end.
 */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < line.length) {
    const ch = line[i] ?? '';
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const close = QUOTE_PAIRS[ch];
    const [token, next] = close ? readQuoted(line, i + 1, close, ch === '"') : readBare(line, i);
    tokens.push(token);
    i = next;
  }
  return tokens;
}

function readQuoted(line: string, start: number, close: string, escapes: boolean): [Token, number] {
  let text = '';
  let i = start;
  while (i < line.length && line[i] !== close) {
    if (escapes && line[i] === '\\' && i + 1 < line.length) i++;
    text += line[i];
    i++;
  }
  return [{ text, quoted: true }, i + 1];
}

function readBare(line: string, start: number): [Token, number] {
  let i = start;
  while (i < line.length && !/\s/.test(line[i] ?? '')) i++;
  return [{ text: line.slice(start, i), quoted: false }, i];
}
