import { didYouMean } from '../did-you-mean';
import { IntrabotError } from '../errors';

/** `runNow` named a job the bot does not have (no schedule names it, and the bot has no handler for it). */
export class UnknownJobError extends IntrabotError {
  /** `known`: the bot's job names, for a "did you mean" when one is close, and listed. */
  constructor(tenant: string, bot: string, job: string, known: readonly string[] = []) {
    const jobs = known.length ? `its jobs are: ${[...known].sort().join(', ')}` : 'it has no jobs';
    super('not_found', `bot "${bot}" on tenant "${tenant}" has no job "${job}"${didYouMean(job, known)}; ${jobs}`, { details: { tenant, bot, job } });
  }
}

/** The scheduler stopped and stopped waiting: the signal of each job still running is aborted with this. */
export class JobAbortedError extends IntrabotError {
  constructor(job: string) {
    super('job_aborted', `job "${job}" was aborted: the scheduler is stopping`, { details: { job } });
  }
}
