import type { Clock } from '../../clock';
import type { Logger } from '../../log';
import { isTransient } from './start-failure';

/** How long start-up keeps trying a platform that fails transiently, by default (INTRABOT_START_WAIT). */
export const DEFAULT_START_WAIT_S = 60;

export interface WaitForPlatformOptions {
  clock: Clock;
  logger: Logger;
  /** The total time to keep trying, in ms; 0 tries once. */
  waitMs: number;
  /** What is being waited for, for the log line ("the platform at https://acme.example.com"). */
  what: string;
  /** Told what start-up waits for while it waits (undefined once it stops waiting): `/readyz` shows it. */
  onWaiting?: (reason: string | undefined) => void;
  /** Whether an error is worth another try (default `isTransient`). */
  transient?: (error: unknown) => boolean;
  /** The error to reject with, given the last one and how long it was tried. */
  explain: (error: unknown, tried: { attempts: number; seconds: number }) => unknown;
}

/** The waits between attempts: 1, 2, 4, 8, then every 15 s. */
export function startRetryDelay(attempt: number): number {
  return Math.min(15_000, 1_000 * 2 ** Math.max(0, attempt - 1));
}

/**
 * Runs `attempt` until it succeeds, fails for good (anything not transient: a wrong token is not
 * retried), or `waitMs` has passed. Each wait is logged with what failed and when the next try is, so
 * a start-up against a platform that is down is never silent. Rejects with `explain`'s error.
 */
export async function waitForPlatform<T>(attempt: () => Promise<T>, options: WaitForPlatformOptions): Promise<T> {
  const { clock, logger } = options;
  const started = clock.now();
  try {
    for (let n = 1; ; n += 1) {
      try {
        return await attempt();
      } catch (error) {
        const elapsed = clock.now() - started;
        const delayMs = startRetryDelay(n);
        if (!(options.transient ?? isTransient)(error) || elapsed + delayMs > options.waitMs) {
          throw options.explain(error, { attempts: n, seconds: Math.round(elapsed / 1000) });
        }
        const reason = `waiting for ${options.what}: ${error instanceof Error ? error.message : String(error)}`;
        options.onWaiting?.(reason);
        const left = Math.max(0, Math.round((options.waitMs - elapsed) / 1000));
        logger.warn({ attempt: n, retryInMs: delayMs }, `${reason}; trying again in ${Math.round(delayMs / 1000)} s (gives up in ${left} s)`);
        await clock.sleep(delayMs);
      }
    }
  } finally {
    options.onWaiting?.(undefined);
  }
}
