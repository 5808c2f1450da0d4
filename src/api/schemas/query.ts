import { z } from 'zod';

// Query values arrive as strings on the wire (the sandbox parses them) and as numbers or booleans
// from typed callers; each helper accepts both and outputs the typed value.

/** An integer query value within bounds, from a number or a decimal string. */
export function queryInt(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .union([
      z.number(),
      z
        .string()
        .regex(/^-?\d+$/, { error: 'must be an integer' })
        .transform(Number),
    ])
    .pipe(
      z
        .int({ error: 'must be an integer' })
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );
}

/** A boolean query value, from a boolean or `true`/`false`/`1`/`0`. */
export const QueryBooleanSchema = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')]).pipe(z.boolean());

/** A comma-separated id list (`group_ids=1,2`), or an array of ids (serialised with commas). */
export const QueryIdListSchema = z
  .union([
    z.array(z.int().positive()),
    z
      .string()
      .regex(/^\d+(,\d+)*$/, { error: 'must be comma-separated integer ids' })
      .transform((v) => v.split(',').map(Number)),
  ])
  .pipe(z.array(z.int().positive()));

/** `since`: an ISO 8601 date or datetime (spec: Pagination). */
export const SinceSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true }), z.iso.datetime({ local: true })], {
  error: 'since must be an ISO 8601 date or datetime',
});

/** Pagination parameters of every list endpoint (spec: Pagination): per_page defaults to 25, max 50. */
export const PaginationQuerySchema = z.object({
  page: queryInt(1).optional(),
  per_page: queryInt(1, 50).optional(),
  since: SinceSchema.optional(),
});
export type PaginationQuery = z.input<typeof PaginationQuerySchema>;

/** `status` of content lists (spec: Pagination): anything else is a 422. */
export const ContentStatusSchema = z.enum(['published', 'draft', 'all'], {
  error: 'status must be one of published, draft, all',
});
export type ContentStatus = z.infer<typeof ContentStatusSchema>;

/** Pagination plus `status`, for posts, announcements, events, calendar entries. */
export const StatusListQuerySchema = PaginationQuerySchema.extend({ status: ContentStatusSchema.optional() });
export type StatusListQuery = z.input<typeof StatusListQuerySchema>;
