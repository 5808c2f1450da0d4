import { z } from 'zod';
import { IdSchema } from './common';

/** A node of the org chart. spec: not shown — a user with the id of the node above. */
export const OrgChartNodeSchema = z.looseObject({
  id: IdSchema,
  parent_id: IdSchema.nullable().optional(),
  user_id: IdSchema.nullable().optional(),
  name: z.string().optional(),
});
export type OrgChartNode = z.infer<typeof OrgChartNodeSchema>;
