import type { z } from 'zod';
import { notFound, validationError } from './sandbox-error';

/** Validates a request part with a zod schema, answering 422 naming the first failing field. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue ? issue.path.map(String).join('.') || 'body' : 'body';
  throw validationError(field, issue?.message ?? 'is invalid');
}

/** A positive integer id from a path parameter; anything else answers 404, as an unknown id does. */
export function idParam(value: unknown): number {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw notFound();
  return n;
}
