import { defineBot } from 'intrabot';
import { CalendarConfigSchema } from './calendar-config';
import { mirrorJob } from './mirror-job';
import { onCallJob } from './oncall-job';
import { remindJob } from './remind-job';

/**
 * An on-call rota and reminders from ICS feeds: `oncall` announces who is on call each morning,
 * `remind` tells a wall shortly before events start, `mirror` keeps the events as the platform's
 * calendar entries.
 */
export default defineBot({
  config: CalendarConfigSchema,
  jobs: { oncall: onCallJob, remind: remindJob, mirror: mirrorJob },
});
