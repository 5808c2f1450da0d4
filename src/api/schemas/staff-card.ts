import { z } from 'zod';
import { IdSchema } from './common';

/** A staff card. spec: not shown. */
export const StaffCardSchema = z.looseObject({ id: IdSchema, user_id: IdSchema.optional(), title: z.string().optional() });
export type StaffCard = z.infer<typeof StaffCardSchema>;
