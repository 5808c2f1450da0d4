/**
 * Joins items the way the locale writes lists: `Ada, Grace and Linus` in en-GB.
 *
 * @example formatList(['Ada', 'Grace', 'Linus'], 'en-GB') // => 'Ada, Grace and Linus'
 */
export function formatList(items: readonly unknown[], locale: string): string {
  const words = items.filter((item) => item != null && item !== '').map(String);
  return new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(words);
}

/**
 * A count with its noun: `1 year`, `5 years`; give the plural when adding "s" is wrong.
 *
 * @example plural(3, 'person', 'people', 'en') // => '3 people'
 */
export function plural(count: number, singular: string, pluralForm: string | undefined, locale: string): string {
  const number = new Intl.NumberFormat(locale).format(count);
  if (Math.abs(count) === 1) return `${number} ${singular}`;
  return `${number} ${pluralForm ?? englishPlural(singular)}`;
}

function englishPlural(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(?:s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

const ENGLISH_SUFFIX: Readonly<Record<string, string>> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };

/**
 * `1st`, `2nd`, `3rd`, `11th`, `22nd` in English; `1.` in locales that write ordinals with a
 * dot (German, Danish, Norwegian, Finnish...), and the bare number elsewhere.
 */
export function ordinal(n: number, locale: string): string {
  const language = locale.split('-')[0]?.toLowerCase() ?? 'en';
  if (language === 'en') return `${n}${ENGLISH_SUFFIX[new Intl.PluralRules('en', { type: 'ordinal' }).select(n)] ?? 'th'}`;
  if (['de', 'da', 'nb', 'nn', 'no', 'fi', 'cs', 'sk', 'pl', 'hu', 'et', 'lv', 'sl', 'hr', 'sr', 'tr'].includes(language)) return `${n}.`;
  return String(n);
}

/**
 * Shortens text to at most `max` characters, the last being an ellipsis; never splits a
 * surrogate pair (emoji).
 *
 * @example truncate('Disk almost full on db-1', 10) // => 'Disk almo…'
 */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  if (max <= 0) return '';
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/**
 * `@Full Name` for a user object (`name`, or first and last name) or a name. The platform documents
 * no mention syntax, so this is plain text that reads like one.
 */
export function mention(user: unknown): string {
  if (typeof user === 'string') return user ? `@${user}` : '';
  if (typeof user !== 'object' || user === null) return '';
  const { name, first_name: first, last_name: last } = user as Record<string, unknown>;
  const full = typeof name === 'string' && name ? name : [first, last].filter((part) => typeof part === 'string' && part).join(' ');
  return full ? `@${full}` : '';
}
