import { z } from 'zod';
import { DateInputSchema, DateSchema, IdInputSchema, IdSchema } from './common';

/** A certificate held by a user. spec: not shown. */
export const CertificateSchema = z.looseObject({
  id: IdSchema,
  user_id: IdSchema.optional(),
  certificate_type_id: IdSchema.optional(),
  issued_at: DateSchema.nullable().optional(),
  expires_at: DateSchema.nullable().optional(),
});
export type Certificate = z.infer<typeof CertificateSchema>;

/** POST /certificates body. spec: not shown — user and type required, other fields pass through. */
export const CertificateCreateSchema = z.looseObject({
  user_id: IdInputSchema,
  certificate_type_id: IdInputSchema,
  issued_at: DateInputSchema.optional(),
  expires_at: DateInputSchema.nullable().optional(),
});
export type CertificateCreate = z.input<typeof CertificateCreateSchema>;
