import { z } from 'zod';
import { LinkKindSchema } from '../alert';

/**
 * A template: text with `{{dotted.path}}` placeholders (`{{a || b || "literal"}}` for fallbacks).
 * Text without placeholders is a constant.
 */
const TemplateSchema = z.string();

/** An exact value, or `~regex`; the regex must compile. */
const PatternSchema = z.string().refine((pattern) => !pattern.startsWith('~') || compiles(pattern.slice(1)), {
  message: 'not a valid regular expression',
});

function compiles(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/**
 * How to read the status: a template whose value is matched against `resolved` (exact,
 * case-insensitive, or a regular expression written `~pattern`); anything else is firing.
 * The string form uses common words (resolved, recovered, ok, up, success...).
 */
export const StatusMappingSchema = z.union([TemplateSchema, z.object({ value: TemplateSchema, resolved: z.array(PatternSchema).min(1) })]);

/**
 * The mapping of a `generic` alert input: how to read an alert out of any JSON body.
 *
 * @example
 * const mapping: GenericMapping = {
 *   source: 'uptime-kuma',
 *   title: '{{monitor.name}}',
 *   summary: '{{heartbeat.msg}}',
 *   status: { value: '{{heartbeat.status}}', resolved: ['1'] },
 *   fingerprint: 'uptime-kuma-{{monitor.id}}',
 *   labelsFrom: ['monitor.tags'],
 * };
 */
export const GenericMappingSchema = z.object({
  /**
   * The body is an alert only when this template's value matches one of `in` (as `status.resolved` does):
   * anything else (a CI run that has only started, a Jenkins phase before FINALIZED) is acknowledged and
   * posts nothing.
   */
  only: z.object({ value: TemplateSchema, in: z.array(PatternSchema).min(1) }).optional(),
  /** Names the alerts' `source`; defaults to `generic`. */
  source: z.string().min(1).default('generic'),
  title: TemplateSchema.min(1),
  summary: TemplateSchema.optional(),
  description: TemplateSchema.optional(),
  severity: TemplateSchema.optional(),
  status: StatusMappingSchema.optional(),
  /** Default: a hash of the title without its status words. */
  fingerprint: TemplateSchema.optional(),
  groupKey: TemplateSchema.optional(),
  startedAt: TemplateSchema.optional(),
  /** Used only when the alert is resolved. */
  endedAt: TemplateSchema.optional(),
  labels: z.record(z.string(), TemplateSchema).optional(),
  /**
   * Paths to read many labels at once: an object of scalars, `[[name, value]]` pairs (Sentry
   * tags), `[{name, value}]` objects (Uptime Kuma tags) or a `name:value,...` string (Datadog tags).
   */
  labelsFrom: z.array(z.string()).optional(),
  links: z.array(z.object({ title: TemplateSchema, url: TemplateSchema, kind: LinkKindSchema.default('link') })).optional(),
  images: z.array(TemplateSchema).optional(),
});
export type GenericMapping = z.infer<typeof GenericMappingSchema>;
/** A mapping as written in config, before defaults. */
export type GenericMappingInput = z.input<typeof GenericMappingSchema>;
