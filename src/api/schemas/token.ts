import { z } from 'zod';
import { DateTimeSchema } from './common';

/** GET /token `data`. spec: not shown beyond "name, scopes and expiry of the calling token". */
export const TokenInfoSchema = z.looseObject({
  name: z.string(),
  scopes: z.array(z.string()),
  expires_at: DateTimeSchema.nullable(),
});
export type TokenInfo = z.infer<typeof TokenInfoSchema>;
