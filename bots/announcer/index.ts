import { defineBot } from 'intrabot';
import { AnnouncerConfigSchema } from './announcer-config';
import { markConfirmed } from './confirmations';
import { publishJob } from './publish-job';
import { remind } from './remind';

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
    remind,
    // every other scheduled job publishes the config entry of its name: adding an announcement takes
    // a `schedules` line and a config entry, no code
    '*': publishJob,
  },
});
