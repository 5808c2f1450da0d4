import { z } from 'zod';
import { IdSchema } from './common';

/** A journey. spec: not shown (Trigger configuration names onboarding, custom and offboarding journeys). */
export const JourneySchema = z.looseObject({
  id: IdSchema,
  title: z.string().optional(),
  type: z.string().optional(),
  is_published: z.boolean().optional(),
});
export type Journey = z.infer<typeof JourneySchema>;
