import type { z } from 'zod';
import { InvalidInputError } from './errors';

/** The dotted path of a zod issue, as the platform names fields: `awards.1.user_id`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join('.');
}

/** A one-line, human description of the first issue, naming the field. */
export function describeIssues(error: z.ZodError, prefix = ''): { field: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { field: prefix || '(root)', message: `${prefix || 'value'} is invalid` };
  const inner = issuePath(issue.path);
  const field = [prefix, inner].filter(Boolean).join('.') || '(root)';
  return { field, message: `${field}: ${issue.message}` };
}

/**
 * Parse `value` with `schema` or throw an `InvalidInputError` naming the failing field.
 * `what` prefixes the path (e.g. `body`, `bot.yaml`), so the message says where the field lives.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what = ''): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { field, message } = describeIssues(result.error, what);
  throw new InvalidInputError(field, message, { cause: result.error });
}
