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

/** Why one target of an alert input cannot receive messages. */
export interface AlertTargetProblem {
  target: string;
  /** Names what is wrong, e.g. `no wall named "Operatons" on tenant default`. */
  problem: string;
}

/**
 * A target of the input cannot exist (its wall is not on the tenant): a configuration error that a
 * retry cannot fix, answered 422 naming the target and the wall. Messages to the other targets were
 * queued; the alerts of the broken target keep their state, so the tool's next send posts them once
 * the manifest is fixed.
 */
export class AlertTargetMissingError extends IntrabotError {
  constructor(problems: readonly AlertTargetProblem[], queued: number) {
    const what = problems.map((p) => `target "${p.target}": ${p.problem}`).join('; ');
    super(
      'alert_target_missing',
      `${what}. Fix the target in the bot's manifest and provision again (restart); ${queued} message(s) to other targets were queued`,
      {
        details: { targets: problems.map((p) => ({ ...p })), queued },
      },
    );
  }

  /** A configuration error: the operator reads it in the runtime's log, the tool in its own log of refused sends. */
  override get logLevel(): 'warn' {
    return 'warn';
  }
}
