import { IntrabotError, type IntrabotErrorOptions } from '../errors';

/** A message of an accepted alert could not be queued: the tool should send the notification again. */
export class AlertsNotQueuedError extends IntrabotError {
  constructor(options: IntrabotErrorOptions = {}) {
    super('alerts_not_queued', 'the alerts could not be queued for sending; retry later', options);
  }
}

/** Another replica is handling the same alert group right now: the tool should send again shortly. */
export class AlertsBusyError extends IntrabotError {
  constructor(options: IntrabotErrorOptions = {}) {
    super('alerts_not_queued', 'the same alert group is being handled right now; retry shortly', options);
  }
}
