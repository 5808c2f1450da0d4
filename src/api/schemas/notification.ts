import { z } from 'zod';
import { IdInputSchema, requiredText } from './common';

/**
 * POST /notifications body. spec: not shown (DESIGN.md): `{ title, body, groups?, users? }`,
 * targeted by groups, users or both — at least one of them.
 */
export const NotificationCreateSchema = z
  .strictObject({
    title: requiredText('title'),
    body: requiredText('body'),
    groups: z.array(IdInputSchema, { error: 'groups must be an array of group ids' }).optional(),
    users: z.array(IdInputSchema, { error: 'users must be an array of user ids' }).optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.groups?.length && !value.users?.length) {
      ctx.addIssue({ code: 'custom', path: ['groups'], message: 'groups or users must name at least one recipient' });
    }
  });
export type NotificationCreate = z.input<typeof NotificationCreateSchema>;

/** POST /notifications answer `data`. spec: not shown — `{ matched }`, the number of employees reached. */
export const NotificationResultSchema = z.looseObject({ matched: z.int() });
export type NotificationResult = z.infer<typeof NotificationResultSchema>;
