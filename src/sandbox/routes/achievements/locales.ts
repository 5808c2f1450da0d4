import { LocalesSchema, type Locales } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import { validationError } from '../../http/sandbox-error';

const FALLBACK: Locales = { locales: { en: 'English', de: 'Deutsch' }, default: 'en' };

/** The company's active content languages (the directory seeds meta `locales`; GET /locales serves it). */
export function activeLocales(ctx: SandboxContext): Locales {
  const parsed = LocalesSchema.safeParse(ctx.db.getMeta('locales'));
  return parsed.success ? parsed.data : FALLBACK;
}

interface Translations {
  title?: Record<string, string> | undefined;
  description?: Record<string, string | null> | undefined;
}

/**
 * spec: Achievements, create body — every locale must be an active language (422 naming it), and
 * the default-language title cannot be emptied through the translations.
 */
export function checkTranslations(locales: Locales, translations: Translations | undefined): void {
  for (const part of ['title', 'description'] as const) {
    for (const [locale, text] of Object.entries(translations?.[part] ?? {})) {
      if (!(locale in locales.locales)) throw validationError(`translations.${part}.${locale}`, `${locale} is not an active language`);
      if (part === 'title' && locale === locales.default && (text ?? '').trim() === '') {
        throw validationError(`translations.title.${locale}`, 'the title in the default language cannot be emptied');
      }
    }
  }
}
