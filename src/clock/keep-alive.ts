import type { Clock, TimerHandle } from './clock';

/**
 * Renews something held (a lease, a claim) every `everyMs` on the clock while the work that holds it
 * runs, each renewal after the last one settled; a failed renewal is told to `onError` and the beat goes
 * on. Returns the function that stops it. The one keep-alive of the outbox's leases, a running job's
 * overlap lock and the provisioning claim.
 *
 * @example
 * const stop = keepAlive(clock, leaseMs / 3, () => queue.extend(lease, leaseMs));
 * try { await send(); } finally { stop(); }
 */
export function keepAlive(clock: Clock, everyMs: number, renew: () => Promise<unknown>, onError: (error: unknown) => void = () => undefined): () => void {
  let handle: TimerHandle | undefined;
  let stopped = false;
  const beat = (): void => {
    handle = clock.setTimeout(
      () => {
        const again = (): void => {
          if (!stopped) beat();
        };
        renew().then(again, (error: unknown) => {
          onError(error);
          again();
        });
      },
      Math.max(1, Math.floor(everyMs)),
    );
  };
  beat();
  return () => {
    stopped = true;
    if (handle) clock.clearTimeout(handle);
  };
}
