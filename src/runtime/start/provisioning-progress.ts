import { z } from 'zod';
import type { Clock } from '../../clock';
import type { Logger } from '../../log';

/**
 * How far start-up provisioning has come, as `/readyz` and the console show it: bots done of all the
 * deployments, and the seconds left of a wait for the rate budget, while there is one.
 */
export const ProvisioningSnapshotSchema = z.object({
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** Seconds left of the current wait for rate budget; absent while requests go out. */
  waiting_s: z.number().int().positive().optional(),
});
export type ProvisioningSnapshot = z.infer<typeof ProvisioningSnapshotSchema>;

/**
 * Waits shorter than this are the usual spacing of requests (about a second each once half the budget is
 * spent) and are shown by `/readyz` only; a longer one is news and gets a log line.
 */
export const LOGGED_WAIT_MS = 5_000;

/**
 * A start that provisions within this long is not slow: its bots are logged at debug, so `npm start`'s
 * first screen is its banner. Past it (or after a long wait for budget) each bot done is news at info.
 */
export const QUIET_START_MS = 2_000;

/**
 * Start-up provisioning's progress (issue #24: twenty bots on 60 requests a minute take a minute, and a
 * restart right after a start waited 57 s for the budget with nothing said). Told when a run begins, when
 * each bot is done and when a request waits for budget; logs at info when a long wait starts and, once
 * the start is slow (a long wait, or `QUIET_START_MS` gone), on each bot done; never per request.
 *
 * @example
 * const progress = new ProvisioningProgress(clock, logger);
 * progress.begin(20);
 * progress.botDone('kudos'); // at debug: a quick start says nothing at info
 * progress.budgetWait(40_000); // logs "provisioning 1/20 bots, waiting 40 s for the rate budget"
 * progress.botDone('ops'); // logs "provisioning 2/20 bots"
 */
export class ProvisioningProgress {
  private run: { done: number; total: number; waitUntil: number; startedAt: number; slow: boolean } | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** A run starts (again, after a transient failure: counted from zero). */
  begin(total: number): void {
    this.run = { done: 0, total, waitUntil: 0, startedAt: this.clock.now(), slow: false };
  }

  botDone(bot: string): void {
    if (!this.run) return;
    this.run.done = Math.min(this.run.total, this.run.done + 1);
    this.run.waitUntil = 0;
    this.run.slow ||= this.clock.now() - this.run.startedAt >= QUIET_START_MS;
    const fields = { bot, done: this.run.done, total: this.run.total };
    const line = describeCounts(this.run.done, this.run.total);
    if (this.run.slow) this.logger.info(fields, line);
    else this.logger.debug(fields, line);
  }

  /** A request waits `waitMs` for rate budget; outside a run (the runtime is up) it is not provisioning's news. */
  budgetWait(waitMs: number): void {
    if (!this.run) return;
    this.run.waitUntil = Math.max(this.run.waitUntil, this.clock.now() + waitMs);
    if (waitMs < LOGGED_WAIT_MS) return;
    this.run.slow = true;
    const { done, total } = this.run;
    this.logger.info({ done, total, waitMs }, `${describeCounts(done, total)}, waiting ${Math.ceil(waitMs / 1000)} s for the rate budget`);
  }

  end(): void {
    this.run = undefined;
  }

  /** Where the run stands; undefined when none is under way. */
  snapshot(): ProvisioningSnapshot | undefined {
    if (!this.run) return undefined;
    const left = this.run.waitUntil - this.clock.now();
    return { done: this.run.done, total: this.run.total, ...(left >= 1_000 ? { waiting_s: Math.ceil(left / 1000) } : {}) };
  }
}

/**
 * One line for a person.
 *
 * @example describeProvisioning({ done: 12, total: 20, waiting_s: 40 }) // 'provisioning 12/20 bots, waiting 40 s for the rate budget'
 */
export function describeProvisioning(snapshot: ProvisioningSnapshot): string {
  const counts = describeCounts(snapshot.done, snapshot.total);
  return snapshot.waiting_s === undefined ? counts : `${counts}, waiting ${snapshot.waiting_s} s for the rate budget`;
}

function describeCounts(done: number, total: number): string {
  return `provisioning ${done}/${total} bots`;
}
