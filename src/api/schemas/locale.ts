import { z } from 'zod';

/** GET /locales `data`. spec: not shown (DESIGN.md): `{ locales: { code: name }, default }`. */
export const LocalesSchema = z.looseObject({
  locales: z.record(z.string(), z.string()),
  default: z.string(),
});
export type Locales = z.infer<typeof LocalesSchema>;
