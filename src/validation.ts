import type { z } from 'zod';
import { InvalidInputError } from './errors';

/** The dotted path of a zod issue, as the platform names fields: `awards.1.user_id`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join('.');
}

/** A one-line, human description of the first issue, naming the field (`message`), and the same without it (`problem`). */
export function describeIssues(error: z.ZodError, prefix = ''): { field: string; message: string; problem: string } {
  const issue = error.issues[0];
  if (!issue) return { field: prefix || '(root)', message: `${prefix || 'value'} is invalid`, problem: 'is invalid' };
  const inner = issuePath(issue.path);
  const field = [prefix, inner].filter(Boolean).join('.') || '(root)';
  return { field, message: `${field}: ${issue.message}`, problem: issue.message };
}

/**
 * Parse `value` with `schema` or throw an `InvalidInputError` naming the failing field.
 * `what` prefixes the path (e.g. `body`, `bot.yaml`), so the message says where the field lives.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what = ''): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { field, message, problem } = describeIssues(result.error, what);
  throw new InvalidInputError(field, message, { cause: result.error, problem });
}

/** The inner schema of a wrapper (`optional`, `default`, `pipe`...), as zod 4 describes it. */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  in?: z.ZodType;
}

function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/**
 * The keys an object schema accepts at `path` (array indexes and record keys step into the items), for
 * "did you mean" on an unknown key; undefined where the path does not lead to an object schema.
 *
 * @example knownKeysAt(BotManifestSchema, ['schedules', 0]) // => ['job', 'cron', ...]
 */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] | undefined {
  const def = defOf(schema);
  const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
  if (inner) return knownKeysAt(inner, path);
  if (path.length === 0) return def.type === 'object' && def.shape ? Object.keys(def.shape) : undefined;
  const [step, ...rest] = path;
  if (def.type === 'object') {
    const next = def.shape?.[String(step)];
    return next ? knownKeysAt(next, rest) : undefined;
  }
  if (def.type === 'array' && def.element) return knownKeysAt(def.element, rest);
  if (def.type === 'record' && def.valueType) return knownKeysAt(def.valueType, rest);
  return undefined;
}
