import { IntrabotError, type IntrabotErrorOptions } from '../errors';

/** A job ran past its schedule's `timeout`: its signal is aborted with this. */
export class JobTimeoutError extends IntrabotError {
  constructor(job: string, timeoutMs: number, options: IntrabotErrorOptions = {}) {
    super('handler_timeout', `job "${job}" ran past its time limit of ${timeoutMs} ms`, { ...options, details: { job, timeoutMs } });
  }
}

/** `runNow` named a job no schedule has. */
export class UnknownJobError extends IntrabotError {
  constructor(tenant: string, bot: string, job: string) {
    super('not_found', `no scheduled job "${job}" for bot "${bot}" on tenant "${tenant}"`, { details: { tenant, bot, job } });
  }
}

/** The scheduler stopped and stopped waiting: the signal of each job still running is aborted with this. */
export class JobAbortedError extends IntrabotError {
  constructor(job: string) {
    super('job_aborted', `job "${job}" was aborted: the scheduler is stopping`, { details: { job } });
  }
}
