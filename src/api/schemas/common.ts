import { z } from 'zod';

// spec: Resources and their fields (general conventions): ids are integers, datetimes are ISO 8601
// with an offset, dates are YYYY-MM-DD, times of day HH:MM.

/** An integer id as the platform returns it. */
export const IdSchema = z.int();

/**
 * A datetime in a response. Parsed leniently (any string) so that a platform answering with
 * microseconds or `Z` is not rejected; the format is documented for OpenAPI.
 */
export const DateTimeSchema = z.string().meta({ format: 'date-time' });
/** A date (`YYYY-MM-DD`) in a response. */
export const DateSchema = z.string().meta({ format: 'date' });
/** A time of day (`HH:MM`) in a response. */
export const TimeSchema = z.string().meta({ pattern: '^\\d{2}:\\d{2}' });

/** A date in a request: `YYYY-MM-DD`. */
export const DateInputSchema = z.iso.date({ error: 'must be a date (YYYY-MM-DD)' });
/** A datetime in a request: ISO 8601 with an offset (or `Z`). */
export const DateTimeInputSchema = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 datetime with an offset' });
/** A time of day in a request: `HH:MM` (seconds tolerated). */
export const TimeInputSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, { error: 'must be a time of day (HH:MM)' });

/** A positive integer id in a request. */
export const IdInputSchema = z
  .int({ error: (issue) => (issue.input === undefined ? 'is required (an integer id)' : 'must be an integer id') })
  .positive({ error: 'must be a positive id' });

/** Group ids in a request body: an array of integers. */
export const GroupIdsInputSchema = z.array(IdInputSchema);

/** The three media kinds the platform knows (spec: Media). */
export const MediaTypeSchema = z.enum(['image', 'video', 'document']);
export type MediaType = z.infer<typeof MediaTypeSchema>;

/** The error body of every 4xx the platform explains (spec: Errors). */
export const ErrorBodySchema = z.looseObject({
  error: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** `links` of a paginated list (spec: Pagination): `prev`/`next` are null at the ends. */
export const ListLinksSchema = z.looseObject({
  first: z.string().nullable().optional(),
  last: z.string().nullable().optional(),
  prev: z.string().nullable(),
  next: z.string().nullable(),
});
export type ListLinks = z.infer<typeof ListLinksSchema>;

/** `meta` of a paginated list (spec: Pagination). Award lists carry at least current_page, per_page and total. */
export const ListMetaSchema = z.looseObject({
  current_page: z.int(),
  last_page: z.int().optional(),
  per_page: z.int(),
  total: z.int(),
  from: z.int().nullable().optional(),
  to: z.int().nullable().optional(),
});
export type ListMeta = z.infer<typeof ListMetaSchema>;

/** `{ data: item }`, the single-resource envelope. */
export function singleEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: item });
}

/** `{ data: [item], links, meta }`, the paginated list envelope (spec: Pagination). */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: z.array(item), links: ListLinksSchema, meta: ListMetaSchema });
}

/** `{ data: [item], meta }` where `links` may be missing (award lists). */
export function metaListEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: z.array(item), links: ListLinksSchema.optional(), meta: ListMetaSchema });
}

/** `{ data: [item] }`, not paginated (GET /users/{id}/achievements, award create). */
export function arrayEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: z.array(item) });
}

/**
 * A required, non-blank string field of a request, with messages naming the field. The value is
 * kept as sent (not trimmed): whitespace inside a body is content.
 */
export function requiredText(field: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .refine((value) => value.trim().length > 0, { error: `${field} must not be empty` });
}

/** An optional string field of a request that may be null. */
export function optionalText(field: string) {
  return z
    .string({ error: `${field} must be a string` })
    .nullable()
    .optional();
}
