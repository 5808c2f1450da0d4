const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  copy: '©',
  reg: '®',
  trade: '™',
  euro: '€',
};

/** Decodes the character references of HTML and XML text (`&amp;`, `&#233;`, `&#xE9;`); unknown names stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/**
 * The text of an HTML fragment as plain text (a feed item's description, a calendar event's): scripts
 * and styles dropped, paragraphs, line breaks and list items kept as lines, every other tag removed,
 * references decoded, runs of blank space collapsed and blank lines dropped. Not a sanitiser: the result is text, never HTML.
 *
 * @example htmlToText('<p>Search <strong>every wall</strong> &amp; more.</p><p>Read on.</p>') // => 'Search every wall & more.\nRead on.'
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n• ')
    .replace(/<\/(p|div|h[1-6]|li|ul|ol|blockquote|pre|tr|table|section|article)\s*>/gi, '\n')
    .replace(/<(p|div|h[1-6]|ul|ol|blockquote|pre|tr|table|section|article)\b[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '');
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n')
    .trim();
}
