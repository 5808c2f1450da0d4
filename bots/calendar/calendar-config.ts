import { DurationSchema, SlugSchema, z } from 'intrabot';

/** A target name from the manifest's `targets`, or a wall by id or name. */
const TargetRefSchema = z.union([z.string().min(1), z.strictObject({ wall: z.union([z.int().positive(), z.string().min(1)]) })]);

/** An ICS feed: a name the rest of the config uses, and where it is. */
export const CalendarSchema = z.strictObject({
  name: SlugSchema,
  /** http or https; empty: the calendar is off (the example's default). */
  url: z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'url must be an http or https URL, or empty (off)' })]),
});
export type Calendar = z.output<typeof CalendarSchema>;

const PatternSchema = z.string().superRefine((pattern, ctx) => {
  try {
    new RegExp(pattern, 'i');
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `not a regular expression: ${(error as Error).message}` });
  }
});

/** Who is on call: the events of `calendar` whose summary matches `pattern` (its first group names the person). */
export const OnCallSchema = z.strictObject({
  calendar: SlugSchema,
  target: TargetRefSchema.default('team'),
  pattern: PatternSchema.default('^on[ -]?call:\\s*(.+)$'),
});

/** Reminders on `target`, `before` an event of `calendars` starts. */
export const RemindersSchema = z.strictObject({
  calendars: z.array(SlugSchema).min(1),
  target: TargetRefSchema.default('team'),
  before: DurationSchema.default(15 * 60_000),
});

/** The events of `calendars` copied into the platform as calendar entries, `horizon` ahead. */
export const MirrorSchema = z.strictObject({
  calendars: z.array(SlugSchema).min(1),
  horizon: DurationSchema.default(30 * 86_400_000),
  /** Group ids the entries are for; empty: global (spec: Calendar entries, `groups`). */
  groups: z.array(z.int().positive()).default([]),
  /** The entries' calendar event type; absent: the platform's "Default". */
  calendar_event_type_id: z.int().positive().optional(),
});

/** The calendar bot's `config` in bot.yaml. */
export const CalendarConfigSchema = z
  .object({
    calendars: z.array(CalendarSchema).default([]),
    /** Each part is off when absent. */
    oncall: OnCallSchema.optional(),
    reminders: RemindersSchema.optional(),
    mirror: MirrorSchema.optional(),
    /** How long one calendar may take to answer. */
    timeout: DurationSchema.default(10_000),
  })
  .superRefine((config, ctx) => {
    const names = new Set<string>();
    config.calendars.forEach((calendar, i) => {
      if (names.has(calendar.name)) ctx.addIssue({ code: 'custom', path: ['calendars', i, 'name'], message: `another calendar is named "${calendar.name}"` });
      names.add(calendar.name);
    });
    const known = (name: string, path: (string | number)[]) => {
      if (!names.has(name)) ctx.addIssue({ code: 'custom', path, message: `no calendar named "${name}" in calendars` });
    };
    if (config.oncall) known(config.oncall.calendar, ['oncall', 'calendar']);
    config.reminders?.calendars.forEach((name, i) => known(name, ['reminders', 'calendars', i]));
    config.mirror?.calendars.forEach((name, i) => known(name, ['mirror', 'calendars', i]));
  });
export type CalendarConfig = z.output<typeof CalendarConfigSchema>;
