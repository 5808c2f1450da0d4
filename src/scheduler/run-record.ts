import { z } from 'zod';

export const RUN_OUTCOMES = ['running', 'ok', 'failed', 'timeout', 'skipped-overlap', 'skipped-late'] as const;

/** What started a run: its cron slot, a slot caught up at start, or `intrabot run`. */
export const RunTriggerSchema = z.enum(['slot', 'catch-up', 'manual']);
export type RunTrigger = z.infer<typeof RunTriggerSchema>;

/**
 * One run of a job as `intrabot jobs` shows it. `running` is written when a run starts and replaced
 * when it ends (a process killed mid-run leaves it). `skipped-late` stands for `skipped` missed slots
 * at once, `slot` being the latest of them.
 */
export const RunRecordSchema = z.object({
  tenant: z.string(),
  bot: z.string(),
  job: z.string(),
  /** The cron slot (ms since the epoch); for a manual run, when it was asked for. */
  slot: z.number(),
  trigger: RunTriggerSchema,
  outcome: z.enum(RUN_OUTCOMES),
  started: z.number(),
  finished: z.number().optional(),
  error: z.string().optional(),
  /** For `skipped-late`: how many slots were skipped (at least this many when `capped`). */
  skipped: z.number().int().optional(),
  capped: z.boolean().optional(),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;
export type RunOutcome = RunRecord['outcome'];
