import { z } from 'zod';
import { DateTimeSchema, IdSchema } from './common';
import { EmbeddedGroupSchema } from './group';

/** spec: Wall — read-only through the API. */
export const WallSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  groups: z.array(EmbeddedGroupSchema),
  created_at: DateTimeSchema,
});
export type Wall = z.infer<typeof WallSchema>;
