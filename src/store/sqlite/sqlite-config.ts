import { z } from 'zod';

export const SqliteStoreConfigSchema = z.object({ kind: z.literal('sqlite'), path: z.string().min(1) });
export type SqliteStoreConfig = z.input<typeof SqliteStoreConfigSchema>;
