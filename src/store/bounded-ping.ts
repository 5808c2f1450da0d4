import { StoreUnavailableError } from './store-errors';

/** How long a health probe waits for the store's server: one that hangs is as unavailable as one that is gone. */
export const PING_TIMEOUT_MS = 2_000;

/**
 * Resolves when `probe` does; fails with `store_unavailable` when it fails or has not answered within
 * `PING_TIMEOUT_MS` (`/readyz` must answer before the load balancer gives up on it).
 *
 * @example
 * ping: () => boundedPing('Redis', () => redis.ping()),
 */
export async function boundedPing(server: string, probe: () => Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError(`${server} did not answer within ${PING_TIMEOUT_MS / 1000} s`)), PING_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
