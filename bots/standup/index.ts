import { defineBot } from 'intrabot';
import { askJob } from './ask-job';
import { blockers, startCheckIn, today, yesterday } from './check-in';
import { StandupConfigSchema } from './standup-config';
import { summaryJob } from './summary-job';

/**
 * A daily stand-up: on working days the `ask` job posts the day's stand-up post and invites each
 * member of the group (not away) by direct message; `/standup` under that post asks yesterday,
 * today and blockers there; the `summary` job posts one summary naming who did not answer.
 */
export default defineBot({
  config: StandupConfigSchema,
  jobs: { ask: askJob, summary: summaryJob },
  commands: {
    standup: {
      description: "Checks in to today's stand-up: three questions, answered under the same post",
      run: startCheckIn,
    },
  },
  conversations: { yesterday, today, blockers },
});
