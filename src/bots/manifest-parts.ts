import { z } from 'zod';
import { cronProblem } from './cron-check';
import { EVENT_NAMES, filterKindOf, type FilterKind } from '../webhooks/events';

/** Lower-case words joined by dashes: bot names, alert inputs, job and target names. */
export const SlugSchema = z
  .string()
  .regex(/^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/, 'use lower-case letters, digits, dashes or underscores, starting with a letter')
  .max(64);

/** An entity id; a numeric string (from an `${env:...}` reference) counts as the number. */
export const IdSchema = z.union([z.int().positive(), z.string().regex(/^\d+$/, 'expected a numeric id').transform(Number)]);

const UNITS_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A duration such as `90s`, `30m`, `1h` or `2d`, read as milliseconds.
 *
 * @example DurationSchema.parse('30m') // => 1800000
 */
export const DurationSchema = z
  .string()
  .regex(/^\d+(?:s|m|h|d)$/, 'expected a duration such as "90s", "30m", "1h" or "2d"')
  .transform((text) => Number(text.slice(0, -1)) * UNITS_MS[text.slice(-1) as keyof typeof UNITS_MS]);

/** A cron expression the scheduler can run (5 fields, or 6 with seconds; see `cronProblem`). */
export const CronSchema = z.string().superRefine((expression, ctx) => {
  const problem = cronProblem(expression);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `invalid cron expression "${expression}": ${problem}` });
});

/** An IANA time zone the runtime's Intl knows (`Europe/Berlin`). */
export const TimezoneSchema = z.string().refine(isTimeZone, { error: (issue) => `unknown time zone ${JSON.stringify(issue.input)}` });

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const EventNameSchema = z.enum(EVENT_NAMES, {
  error: (issue) => `unknown event ${JSON.stringify(issue.input)}; known events: ${EVENT_NAMES.join(', ')}`,
});

const FILTER_KINDS: readonly FilterKind[] = ['walls', 'forms', 'achievements'];

/**
 * One subscription: an event name, or `{ event, walls | forms | achievements }` where the event
 * supports that filter (spec: Outgoing webhook management, "Filterable events"). The platform
 * ignores filters on other events; we refuse them, because a bot author who wrote one expects it
 * to narrow what arrives.
 */
const FilteredSubscriptionSchema = z
  .strictObject({
    event: EventNameSchema,
    walls: z.array(IdSchema).min(1).optional(),
    forms: z.array(IdSchema).min(1).optional(),
    achievements: z.array(IdSchema).min(1).optional(),
  })
  .superRefine((entry, ctx) => {
    const allowed = filterKindOf(entry.event);
    for (const kind of FILTER_KINDS) {
      if (entry[kind] === undefined || kind === allowed) continue;
      const hint = allowed ? `it can be filtered by ${allowed} only` : 'it cannot be filtered';
      ctx.addIssue({ code: 'custom', path: [kind], message: `${entry.event} does not take a ${kind} filter: ${hint}` });
    }
  });

export const EventSubscriptionSchema = chooseSchema<z.output<typeof FilteredSubscriptionSchema>>((value) => {
  if (typeof value === 'string') return EventNameSchema.transform((event) => ({ event }));
  if (isPlainObject(value)) return FilteredSubscriptionSchema;
  return 'an event is a name such as post.created, or { event, walls | forms | achievements }';
});

export type EventSubscription = z.output<typeof EventSubscriptionSchema>;

/** One cron job. `catch_up`: how late a missed slot may still run after downtime (default: never). */
export const ScheduleSchema = z.strictObject({
  job: SlugSchema,
  cron: CronSchema,
  timezone: TimezoneSchema.optional(),
  catch_up: DurationSchema.optional(),
  overlap: z.enum(['skip', 'allow']).default('skip'),
  timeout: DurationSchema.optional(),
});

export type Schedule = z.output<typeof ScheduleSchema>;

/**
 * An object that is one of several shapes, told apart by which key it has (`{ wall }` or
 * `{ incoming_webhook }`...). Unlike `z.union`, a mistake inside the chosen shape is reported at
 * its own path (`targets.ops.incoming.wall_id`), not as "matches none of the options".
 */
export function oneOfKeys<T extends Record<string, z.ZodType>>(options: T, what: string) {
  const keys = Object.keys(options);
  const expected = `${what} needs exactly one of: ${keys.join(', ')}`;
  return chooseSchema<z.output<T[keyof T]>>((value) => {
    const present = isPlainObject(value) ? keys.filter((key) => key in value) : [];
    const key = present.length === 1 ? present[0] : undefined;
    return (key === undefined ? undefined : options[key]) ?? expected;
  });
}

/**
 * A value whose schema depends on its shape: `select` returns the schema to apply, or a message
 * when nothing fits. Issues of the chosen schema keep their own paths.
 */
export function chooseSchema<Out>(select: (value: unknown) => z.ZodType | string) {
  return z.unknown().transform((value, ctx): Out => {
    const schema = select(value);
    if (typeof schema === 'string') {
      ctx.addIssue({ code: 'custom', message: schema });
      return z.NEVER;
    }
    const result = schema.safeParse(value);
    if (result.success) return result.data as Out;
    for (const issue of result.error.issues) {
      // keep the offending key in the path: the custom issue that carries it has no `keys`
      const path = issue.code === 'unrecognized_keys' ? [...issue.path, ...issue.keys.slice(0, 1)] : issue.path;
      // no `input`: the value may be a secret (an auth token), and issues end up in logs
      ctx.addIssue({ code: 'custom', path, message: issue.message });
    }
    return z.NEVER;
  });
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
