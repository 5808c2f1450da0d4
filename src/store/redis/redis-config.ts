import { z } from 'zod';

export const RedisStoreConfigSchema = z.object({ kind: z.literal('redis'), url: z.string().min(1), prefix: z.string().min(1).default('intrabot') });
export type RedisStoreConfig = z.input<typeof RedisStoreConfigSchema>;
