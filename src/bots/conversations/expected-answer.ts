import type { z } from 'zod';

/** The parts of a zod schema this module reads: its definition and the facts zod derives from its checks. */
interface Inspectable {
  description?: string;
  _zod: { def: { type: string; [key: string]: unknown } };
  isInt?: boolean;
  format?: string | null;
  minLength?: number | null;
  maxLength?: number | null;
}

const FORMATS: Readonly<Record<string, string>> = {
  email: 'an email address',
  url: 'a link such as https://example.com',
  date: 'a date such as 2026-12-31',
  datetime: 'a date and time such as 2026-12-31T09:30',
  time: 'a time such as 09:30',
};

/**
 * What a zod schema over an answer's text takes, said to an employee (`a whole number from 1 to 10`,
 * `one of: small, large`), or undefined when it cannot be told from the schema (a `refine`, a regex, a
 * transform). zod's own messages ("Invalid input: expected number, received NaN") are for developers,
 * so a re-ask says this instead. A schema's `.describe('a team name')` is taken as it is.
 *
 * @example expectedAnswer(z.coerce.number().int().min(1).max(5)) // => 'a whole number from 1 to 5'
 */
export function expectedAnswer(schema: z.ZodType): string | undefined {
  const node = schema as unknown as Inspectable;
  if (node.description) return node.description;
  const def = node._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      return expectedAnswer(def.innerType as z.ZodType);
    case 'pipe':
      return expectedAnswer(def.out as z.ZodType) ?? expectedAnswer(def.in as z.ZodType);
    case 'number':
      return numberOf(node);
    case 'string':
      return stringOf(node);
    case 'enum':
      return `one of: ${Object.values(def.entries as Record<string, string | number>).join(', ')}`;
    case 'literal':
      return (def.values as unknown[]).map((value) => JSON.stringify(value)).join(' or ');
    case 'boolean':
      return 'yes or no';
    case 'date':
      return FORMATS.date;
    case 'union':
      return unionOf(def.options as z.ZodType[]);
    default:
      return undefined;
  }
}

function numberOf(node: Inspectable): string {
  const what = node.isInt ? 'a whole number' : 'a number';
  const low = limit(node, 'greater_than');
  const high = limit(node, 'less_than');
  // a whole number's exclusive bound is the next whole number in; a number's is said as "above" or "below"
  const min = low && (low.inclusive ? low.value : node.isInt ? low.value + 1 : undefined);
  const max = high && (high.inclusive ? high.value : node.isInt ? high.value - 1 : undefined);
  if (min !== undefined && max !== undefined) return `${what} from ${min} to ${max}`;
  const lower = min !== undefined ? `of ${min} or more` : low ? `above ${low.value}` : undefined;
  const upper = max !== undefined ? `${lower ? '' : 'of '}${max} or less` : high ? `below ${high.value}` : undefined;
  return [what, [lower, upper].filter(Boolean).join(' and ')].filter(Boolean).join(' ');
}

/** The tightest bound of one direction among a number schema's checks. */
function limit(node: Inspectable, check: 'greater_than' | 'less_than'): { value: number; inclusive: boolean } | undefined {
  let found: { value: number; inclusive: boolean } | undefined;
  for (const item of (node._zod.def.checks ?? []) as Array<{ _zod: { def: { check: string; value?: unknown; inclusive?: boolean } } }>) {
    const def = item._zod.def;
    if (def.check !== check || typeof def.value !== 'number') continue;
    const tighter = !found || (check === 'greater_than' ? def.value > found.value : def.value < found.value);
    if (tighter) found = { value: def.value, inclusive: def.inclusive ?? false };
  }
  return found;
}

function stringOf(node: Inspectable): string | undefined {
  if (node.format) return FORMATS[node.format];
  const min = node.minLength ?? undefined;
  const max = node.maxLength ?? undefined;
  if (min !== undefined && max !== undefined) return `a text of ${min} to ${max} characters`;
  if (min !== undefined && min > 1) return `a text of at least ${min} characters`;
  if (max !== undefined) return `a text of at most ${max} characters`;
  return undefined;
}

function unionOf(options: readonly z.ZodType[]): string | undefined {
  const parts = options.map(expectedAnswer);
  return parts.every((part) => part !== undefined) ? parts.join(' or ') : undefined;
}
