import { defineBot, type JobRun } from '../../src';
import type { BotContext } from '../../src';
import { AnnouncerConfigSchema, type AnnouncerConfig } from './announcer-config';
import { markConfirmed } from './confirmations';
import { scheduledJobNames } from './job-names';
import { publishJob } from './publish-job';
import { remind } from './remind';

const REMIND_JOB = 'remind';

const publishJobs = Object.fromEntries(
  scheduledJobNames([REMIND_JOB]).map((name) => [name, (ctx: BotContext<AnnouncerConfig>, run: JobRun) => publishJob(ctx, run)]),
);

/**
 * Recurring announcements and events from templates on cron schedules, and reminders to confirm
 * confirmable announcements, by direct message, once per employee.
 */
export default defineBot({
  config: AnnouncerConfigSchema,
  on: {
    'announcement.confirmed': async (event, ctx) => markConfirmed(ctx.store, event.payload.announcement.id, event.payload.employee.id),
  },
  jobs: {
    ...publishJobs,
    [REMIND_JOB]: remind,
  },
});
