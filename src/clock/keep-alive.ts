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
  const interval = Math.max(1, Math.floor(everyMs));
  let handle: TimerHandle | undefined;
  let dueAt = 0;
  let stopped = false;
  const beat = (): void => {
    dueAt = clock.now() + interval;
    handle = clock.setTimeout(renewNow, interval);
  };
  function renewNow(): void {
    handle = undefined;
    const again = (): void => {
      if (!stopped) beat();
    };
    // in a microtask: a renewal that throws at once is told like any other, never thrown into the caller
    Promise.resolve()
      .then(renew)
      .then(again, (error: unknown) => {
        onError(error);
        again();
      });
  }
  beat();
  // a clock moved forward past the next beat (by hand: the sandbox's, a test's) renews at once, before
  // the timers that became due run, among them a worker's next look for work: the lease would otherwise
  // have run out in the jump and been handed to another worker while still in progress here
  const stopJumps =
    clock.onJump?.((from, to) => {
      if (to < from) dueAt -= from - to; // the clock keeps the beat's remaining wait: so does its due time
      if (stopped || handle === undefined || to <= from || to < dueAt) return;
      clock.clearTimeout(handle);
      renewNow();
    }) ?? (() => undefined);
  return () => {
    stopped = true;
    stopJumps();
    if (handle) clock.clearTimeout(handle);
  };
}

/**
 * Renews something held each time the clock is moved forward by hand (the sandbox's clock, a test's),
 * before the timers that became due run, among them a worker's next look for work: a lease would
 * otherwise have run out in the jump and been handed to another worker while still in progress here
 * (one message sent twice). For work without a beat of its own (an inbox delivery's handler). Returns the function that stops it; a clock never adjusted never calls.
 */
export function renewOnJump(clock: Clock, renew: () => Promise<unknown>, onError: (error: unknown) => void = () => undefined): () => void {
  const stop = clock.onJump?.((from, to) => {
    if (to > from) Promise.resolve().then(renew).catch(onError);
  });
  return stop ?? (() => undefined);
}
