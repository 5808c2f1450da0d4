import type { z } from 'zod';
import { LearningContentCreateSchema, LearningContentSchema } from './learning-content';

/** A handbook. spec: not shown. */
export const HandbookSchema = LearningContentSchema.extend({});
export type Handbook = z.infer<typeof HandbookSchema>;

/** POST /handbooks body. spec: not shown. */
export const HandbookCreateSchema = LearningContentCreateSchema.extend({});
export type HandbookCreate = z.input<typeof HandbookCreateSchema>;
