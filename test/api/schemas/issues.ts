import type { z } from 'zod';
import { InvalidInputError } from '../../../src/errors';
import { parseOrThrow } from '../../../src/validation';

/** The paths and messages of the issues a value raises. */
export function issues(schema: z.ZodType, value: unknown): { path: string; message: string }[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

export function failingField(schema: z.ZodType, value: unknown): string {
  try {
    parseOrThrow(schema, value, 'body');
  } catch (error) {
    if (error instanceof InvalidInputError) return error.field;
    throw error;
  }
  throw new Error('expected the value to be refused');
}
