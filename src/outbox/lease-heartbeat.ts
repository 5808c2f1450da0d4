import type { Clock, TimerHandle } from '../clock';
import type { LeaseRef, OutboxQueue } from '../store/queue';

/**
 * Keeps a lease alive while a long send runs (pacing waits, uploads, a digest of many parts): it is
 * extended every third of its length, so it runs out only when the process holding it is gone and
 * another replica may take the entry over. Returns the function that stops the heartbeat.
 */
export function keepLeaseAlive(queue: Pick<OutboxQueue, 'extend'>, clock: Clock, lease: LeaseRef, leaseMs: number): () => void {
  let handle: TimerHandle | undefined;
  let stopped = false;
  const beat = (): void => {
    handle = clock.setTimeout(
      () => {
        const again = (): void => {
          if (!stopped) beat();
        };
        queue.extend(lease, leaseMs).then(again, again);
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
  };
  beat();
  return () => {
    stopped = true;
    if (handle) clock.clearTimeout(handle);
  };
}
