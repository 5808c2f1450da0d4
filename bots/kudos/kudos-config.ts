import { DurationSchema, z } from 'intrabot';

/** The kudos bot's `config` in bot.yaml. */
export const KudosConfigSchema = z.object({
  /** The achievement `/kudos` awards: an id, or the title of a published custom achievement. */
  achievement: z.string().min(1),
  /** Celebrate only these achievements on `achievement.awarded` (ids); empty: every public one. */
  celebrate: z.array(z.coerce.number().int().positive()).default([]),
  /** A wall name or id for people without a department wall; empty: no post for them. */
  fallback_wall: z.string().default(''),
  /** How long the directory read for `/kudos` is reused. */
  directory_cache: DurationSchema.default(60 * 60_000),
});

export type KudosConfig = z.output<typeof KudosConfigSchema>;
