import type { HelperDelegate, HelperOptions } from 'handlebars';
import { formatDate, formatDatetime, toStyle, type LocaleSettings } from './date-format';
import { markdownToText } from './markdown-text';
import { plain } from './plain';
import { formatList, mention, ordinal, plural, truncate } from './text-format';

/** Handlebars passes its options object last; helpers see only the template's own arguments. */
function args(all: unknown[]): unknown[] {
  const last = all[all.length - 1];
  const isOptions = typeof last === 'object' && last !== null && 'hash' in last && 'data' in (last as HelperOptions);
  return isOptions ? all.slice(0, -1) : all;
}

function pick(item: unknown, key: unknown): unknown {
  if (typeof key !== 'string' || typeof item !== 'object' || item === null) return item;
  return (item as Record<string, unknown>)[key];
}

/**
 * The helpers every template gets, bound to the tenant's zone and locale:
 * - `{{date value ["short"|"medium"|"long"|"full"]}}`, `{{datetime value [style]}}`
 * - `{{list items ["key"]}}`: `Ada, Grace and Linus` (with `key`, that field of each item)
 * - `{{plural n "year" ["years"]}}`: `1 year`, `5 years`
 * - `{{mention user}}`: `@Full Name`
 * - `{{truncate text 80}}`: at most 80 characters, ending in `…`
 * - `{{#if (eq a b)}}`, `{{ordinal n}}`: `1st`, `2nd`
 * - `{{plain text}}`: untrusted text that can mention nobody (`@` becomes `＠`)
 * - `{{markdown text}}`: markdown (release notes, a README) as the platform's plain text
 */
export function createHelpers(settings: LocaleSettings): Record<string, HelperDelegate> {
  return {
    date: (...all: unknown[]) => {
      const [value, style] = args(all);
      return formatDate(value, toStyle(style, 'long'), settings);
    },
    datetime: (...all: unknown[]) => {
      const [value, style] = args(all);
      return formatDatetime(value, toStyle(style, 'medium'), settings);
    },
    list: (...all: unknown[]) => {
      const [items, key] = args(all);
      return Array.isArray(items)
        ? formatList(
            items.map((item) => pick(item, key)),
            settings.locale,
          )
        : '';
    },
    plural: (...all: unknown[]) => {
      const [count, singular, pluralForm] = args(all);
      const n = Number(Array.isArray(count) ? count.length : count);
      return plural(Number.isFinite(n) ? n : 0, String(singular ?? ''), typeof pluralForm === 'string' ? pluralForm : undefined, settings.locale);
    },
    mention: (...all: unknown[]) => mention(args(all)[0]),
    truncate: (...all: unknown[]) => {
      const [text, max] = args(all);
      return truncate(text == null ? '' : String(text), Number(max ?? 100));
    },
    eq: (...all: unknown[]) => {
      const [a, b] = args(all);
      return a === b;
    },
    ordinal: (...all: unknown[]) => ordinal(Number(args(all)[0]), settings.locale),
    plain: (...all: unknown[]) => plain(args(all)[0]),
    markdown: (...all: unknown[]) => {
      const text = args(all)[0];
      return text == null ? '' : markdownToText(String(text));
    },
  };
}
