import { z } from 'zod';
import type { Clock } from '../clock';
import type { Logger } from '../log';

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
 * Start-up provisioning's progress (issue #24: twenty bots on 60 requests a minute take a minute, and a
 * restart right after a start waited 57 s for the budget with nothing said). Told when a run begins, when
 * each bot is done and when a request waits for budget; logs at info on each bot done and when a long
 * wait starts, never per request.
 *
 * @example
 * const progress = new ProvisioningProgress(clock, logger);
 * progress.begin(20);
 * progress.botDone('kudos'); // logs "provisioning 1/20 bots"
 * progress.budgetWait(40_000); // logs "provisioning 1/20 bots, waiting 40 s for the rate budget"
 */
export class ProvisioningProgress {
  private run: { done: number; total: number; waitUntil: number } | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** A run starts (again, after a transient failure: counted from zero). */
  begin(total: number): void {
    this.run = { done: 0, total, waitUntil: 0 };
  }

  botDone(bot: string): void {
    if (!this.run) return;
    this.run.done = Math.min(this.run.total, this.run.done + 1);
    this.run.waitUntil = 0;
    this.logger.info({ bot, done: this.run.done, total: this.run.total }, `provisioning ${this.run.done}/${this.run.total} bots`);
  }

  /** A request waits `waitMs` for rate budget; outside a run (the runtime is up) it is not provisioning's news. */
  budgetWait(waitMs: number): void {
    if (!this.run) return;
    this.run.waitUntil = Math.max(this.run.waitUntil, this.clock.now() + waitMs);
    if (waitMs < LOGGED_WAIT_MS) return;
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
