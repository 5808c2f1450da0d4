import { z } from 'zod';

/** GET /manager-hub `data`. spec: not shown — passed through as an open object. */
export const ManagerHubSchema = z.looseObject({});
export type ManagerHub = z.infer<typeof ManagerHubSchema>;
