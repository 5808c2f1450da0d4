import { z } from 'zod';

/** The PostgreSQL store's settings: `INTRABOT_DATABASE_URL` and `INTRABOT_DATABASE_SCHEMA`. */
export const PostgresStoreConfigSchema = z.object({
  kind: z.literal('postgres'),
  /** `postgres://user@host:5432/db`; the password, when it carries one, is never shown. */
  url: z.string().min(1),
  /** The schema (namespace) of intrabot's tables, so it can share a database; created when missing. */
  schema: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'expected a lower-case SQL identifier (letters, digits, _)')
    .default('intrabot'),
  /** Run the migrations at open (default); `intrabot start --no-migrate` leaves them to `intrabot migrate`. */
  migrate: z.boolean().default(true),
});
export type PostgresStoreConfig = z.input<typeof PostgresStoreConfigSchema>;
