import { z } from 'zod';
import { IdSchema, requiredText } from './common';

/** A certificate type. spec: not shown. */
export const CertificateTypeSchema = z.looseObject({ id: IdSchema, name: z.string() });
export type CertificateType = z.infer<typeof CertificateTypeSchema>;

/** POST /certificate-types body. spec: not shown — `name` required, other fields pass through. */
export const CertificateTypeCreateSchema = z.looseObject({ name: requiredText('name') });
export type CertificateTypeCreate = z.input<typeof CertificateTypeCreateSchema>;
