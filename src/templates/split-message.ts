import { InvalidInputError } from '../errors';

export interface SplitOptions {
  /** The most a part may measure, numbering prefix included. */
  maxLength: number;
  /** Prefix each part with `(1/3) ` when there is more than one. */
  numbered?: boolean;
  /** `chars`: UTF-16 code units (JS `length`, never fewer than code points); `bytes`: UTF-8 bytes. */
  unit?: 'chars' | 'bytes';
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** How long a text is in the given unit. */
export function measure(text: string, unit: SplitOptions['unit'] = 'chars'): number {
  return unit === 'bytes' ? Buffer.byteLength(text, 'utf8') : text.length;
}

/**
 * Split a long message into parts of at most `maxLength`, never dropping or truncating text:
 * the parts (without their numbering prefix) concatenate back to the original. Cuts fall after a
 * line break, else after a space, else between two graphemes (an emoji or a CJK character is
 * never cut in half); a blank line in the second half of a part is preferred to any of these.
 *
 * @example splitMessage('alpha beta gamma', { maxLength: 11 }) // ['alpha beta ', 'gamma']
 */
export function splitMessage(text: string, options: SplitOptions): string[] {
  const unit = options.unit ?? 'chars';
  if (!Number.isInteger(options.maxLength) || options.maxLength < 1) {
    throw new InvalidInputError('maxLength', 'maxLength: must be a positive integer');
  }
  if (measure(text, unit) <= options.maxLength) return [text];
  if (!options.numbered) return chunk(text, options.maxLength, unit);
  let digits = 1;
  for (;;) {
    const widest = `(${'9'.repeat(digits)}/${'9'.repeat(digits)}) `;
    const budget = options.maxLength - measure(widest, unit);
    if (budget < 1) throw new InvalidInputError('maxLength', `maxLength: ${options.maxLength} leaves no room after the part numbers`);
    const parts = chunk(text, budget, unit);
    const needed = String(parts.length).length;
    if (needed <= digits) return parts.map((part, index) => `(${index + 1}/${parts.length}) ${part}`);
    digits = needed;
  }
}

/** Remove the `(i/n) ` prefix `splitMessage` adds. */
export function stripPartNumber(part: string): string {
  return part.replace(/^\(\d+\/\d+\) /, '');
}

function chunk(text: string, budget: number, unit: 'chars' | 'bytes'): string[] {
  const segments = graphemesOf(text).flatMap((segment) => fitting(segment, budget, unit));
  const sizes = segments.map((segment) => measure(segment, unit));
  const parts: string[] = [];
  let start = 0;
  while (start < segments.length) {
    let end = start;
    let size = 0;
    while (end < segments.length && size + (sizes[end] ?? 0) <= budget) size += sizes[end++] ?? 0;
    if (end === start) throw new InvalidInputError('maxLength', `maxLength: a part of ${budget} cannot hold one character of the text`);
    const cut = end === segments.length ? end : cutPoint(segments, start, end);
    parts.push(segments.slice(start, cut).join(''));
    start = cut;
  }
  return parts;
}

/**
 * Where to end a part that could run to `end`: after a blank line in the part's second half (so
 * paragraphs such as one alert of a digest stay together without leaving parts half empty), else
 * after the last line break, else after the last space, else at `end`.
 */
function cutPoint(segments: readonly string[], start: number, end: number): number {
  const half = start + Math.ceil((end - start) / 2);
  const after = (test: (i: number) => boolean, from: number): number => {
    for (let i = end - 1; i >= from; i--) if (test(i)) return i + 1;
    return -1;
  };
  const isBreak = (i: number): boolean => segments[i] === '\n' || segments[i] === '\r\n';
  const isParagraph = (i: number): boolean => isBreak(i) && i > start && isBreak(i - 1);
  const isSpace = (i: number): boolean => /^\s+$/.test(segments[i] ?? '');
  for (const candidate of [after(isParagraph, half), after(isBreak, start), after(isSpace, start)]) {
    if (candidate > start) return candidate;
  }
  return end;
}

// V8 copies the whole input string into every segment it yields, so segmenting a long text at once
// costs length² memory (a storm digest ran out of heap); small windows keep it linear.
const WINDOW = 128;
const ASCII = /^[\x20-\x7e\n\t]*$/;

/** The text's grapheme clusters, in order. */
export function graphemesOf(text: string): string[] {
  const out: string[] = [];
  let position = 0;
  while (position < text.length) {
    const window = text.slice(position, position + WINDOW);
    // printable ASCII and newlines: every character is its own grapheme (the common case, and fast)
    const segments = ASCII.test(window) ? [...window] : [...graphemes.segment(window)].map((s) => s.segment);
    // the window's last cluster may continue past its edge: read it again in the next window
    if (position + WINDOW < text.length && segments.length > 1) segments.pop();
    out.push(...segments);
    position += segments.reduce((sum, segment) => sum + segment.length, 0);
  }
  return out;
}

/** A single grapheme longer than a whole part (only with tiny limits) is split by code point. */
function fitting(segment: string, budget: number, unit: 'chars' | 'bytes'): string[] {
  if (measure(segment, unit) <= budget) return [segment];
  return [...segment];
}
