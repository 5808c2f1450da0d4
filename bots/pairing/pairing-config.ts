import { z } from 'intrabot';

/** The pairing bot's `config` in bot.yaml. */
export const PairingConfigSchema = z.object({
  /** The group whose members are paired (an id, or a name looked up in `GET /groups`); empty: opt-ins only. */
  group: z.union([z.int().positive(), z.string()]).default(''),
  /** How many past rounds' pairs to avoid. */
  avoid_rounds: z.int().nonnegative().default(4),
  /** Leave out members marked away (spec: User, `is_away`) when the round is drawn. */
  skip_away: z.boolean().default(true),
  /** Mixed into each round's seed with the round's date. */
  seed: z.string().default(''),
});

export type PairingConfig = z.output<typeof PairingConfigSchema>;
