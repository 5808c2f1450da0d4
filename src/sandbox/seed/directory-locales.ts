import { LocalesSchema, type Locales } from '../../api/schemas';
import type { SandboxContext } from '../context';

/** Meta key of the company's active languages; achievements validate translations against it. */
export const LOCALES_KEY = 'locales';

/** Every seed's company speaks English (default) and German. */
export function seedLocales(ctx: SandboxContext): void {
  ctx.db.setMeta(LOCALES_KEY, { locales: { en: 'English', de: 'Deutsch' }, default: 'en' } satisfies Locales);
}

/** The active languages as GET /locales answers them (spec: Other endpoints that exist; DESIGN.md's shape). */
export function activeLocales(ctx: SandboxContext): Locales {
  return LocalesSchema.parse(ctx.db.getMeta(LOCALES_KEY) ?? { locales: { en: 'English' }, default: 'en' });
}
