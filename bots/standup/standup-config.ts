import { DurationSchema, z } from 'intrabot';

const DateSchema = z.iso.date();
export const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A member away on some days: `{ user: 12 | 'ada@example.com', from, to? }` (`to` defaults to `from`). */
export const AbsenceSchema = z.strictObject({
  user: z.union([z.int().positive(), z.string().min(1)]),
  from: DateSchema,
  to: DateSchema.optional(),
});
export type Absence = z.infer<typeof AbsenceSchema>;

/** The stand-up bot's `config` in bot.yaml. */
export const StandupConfigSchema = z.object({
  /** A target name from the manifest's `targets`: where the day's post and the summary go. */
  target: z.string().min(1).default('team'),
  /** The group whose members are asked: an id, or a name looked up in `GET /groups`. */
  group: z.union([z.int().positive(), z.string().min(1)]),
  /** How long after the ask answers are taken (the summary job should run then). */
  answer_within: DurationSchema.default(90 * 60_000),
  /** The days of the week with a stand-up. */
  workdays: z.array(z.enum(WEEKDAYS)).default(['MON', 'TUE', 'WED', 'THU', 'FRI']),
  /** Dates without a stand-up (public holidays, a company day off). */
  holidays: z.array(DateSchema).default([]),
  /** Members away on given days, besides those the platform marks `is_away`. */
  absences: z.array(AbsenceSchema).default([]),
});

export type StandupConfig = z.output<typeof StandupConfigSchema>;
