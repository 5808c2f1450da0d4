import { z } from 'zod';
import { TimezoneSchema, type Schedule } from '../bots/manifest-parts';

/** Names used in claim and record keys; `:` separates key parts, so it may not appear in them. */
const KeyPartSchema = z
  .string()
  .min(1)
  .regex(/^[^:\s]+$/, 'must not contain ":" or spaces');

/**
 * One cron job the scheduler keeps: a bot's manifest schedule for one tenant, with the time zone
 * resolved (the schedule's own, else the tenant's).
 */
export const ScheduleEntrySchema = z.object({
  tenant: KeyPartSchema,
  bot: KeyPartSchema,
  job: KeyPartSchema,
  cron: z.string().min(1),
  timezone: TimezoneSchema,
  /** How late a slot missed during downtime may still run at start; absent: missed slots are skipped. */
  catchUpMs: z.number().int().positive().optional(),
  /** What happens when a slot comes while the previous run is still going. */
  overlap: z.enum(['skip', 'allow']).default('skip'),
  /** The run's signal is aborted after this long and the run is recorded as `timeout`. */
  timeoutMs: z.number().int().positive().optional(),
});
export type ScheduleEntry = z.output<typeof ScheduleEntrySchema>;
export type ScheduleEntryInput = z.input<typeof ScheduleEntrySchema>;

/** `tenant:bot:job`: the identity of a schedule in keys and maps. */
export function scheduleId(entry: Pick<ScheduleEntry, 'tenant' | 'bot' | 'job'>): string {
  return `${entry.tenant}:${entry.bot}:${entry.job}`;
}

/**
 * The scheduler's entries for one bot on one tenant, from the manifest as that tenant sees it.
 *
 * @example
 * schedulesFromManifest(manifestForTenant(manifest, 'acme').schedules, { tenant: 'acme', bot: 'kudos', timezone: 'Europe/Berlin' })
 */
export function schedulesFromManifest(schedules: readonly Schedule[], owner: { tenant: string; bot: string; timezone: string }): ScheduleEntry[] {
  return schedules.map((s) =>
    ScheduleEntrySchema.parse({
      tenant: owner.tenant,
      bot: owner.bot,
      job: s.job,
      cron: s.cron,
      timezone: s.timezone ?? owner.timezone,
      overlap: s.overlap,
      ...(s.catch_up === undefined ? {} : { catchUpMs: s.catch_up }),
      ...(s.timeout === undefined ? {} : { timeoutMs: s.timeout }),
    }),
  );
}
