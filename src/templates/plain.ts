/** U+FF20 FULLWIDTH COMMERCIAL AT: looks like `@`, is not one. */
export const NEUTRAL_AT = '\uFF20';

/**
 * Makes untrusted text (alert descriptions, labels, user input echoed back) unable to mention
 * anyone: every `@` becomes a fullwidth `＠`.
 *
 * Why fullwidth and not a zero-width joiner after `@`: the platform's mention syntax is not
 * documented, so we cannot know what it parses; a visible look-alike character is certainly not
 * `@`, stays readable, and survives sanitizers that strip zero-width characters (which would
 * quietly turn the mention back on).
 *
 * @example plain('disk full, ping @Everyone') // => 'disk full, ping ＠Everyone'
 */
export function plain(text: unknown): string {
  if (text == null) return '';
  return String(text).replaceAll('@', NEUTRAL_AT);
}
