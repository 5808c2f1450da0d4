import { createSystemClock, type Clock, type TimerHandle } from '../../clock';

/**
 * The clock `testBot`'s time limits run on: a timer fires once the fake clock has moved past it (a test
 * advancing the clock while a handler waits) or once that much real time has passed, whichever comes
 * first. The fake clock stands still until the test moves it, so on it alone a handler that hangs would
 * wait for ever and the test fail with its runner's generic timeout, naming neither bot nor handler.
 * `now()` and `sleep()` are the fake clock's.
 *
 * @example
 * await withTimeLimit(limitClock(bot.clock), 10_000, 'kudos on.post.created', (signal) => run(signal));
 */
export function limitClock(fake: Clock, real: Clock = createSystemClock()): Clock {
  const timers = new Map<number, { fake: TimerHandle; real: TimerHandle }>();
  let nextId = 1;
  const clear = (id: number): void => {
    const pair = timers.get(id);
    if (!pair) return;
    timers.delete(id);
    fake.clearTimeout(pair.fake);
    real.clearTimeout(pair.real);
  };
  return {
    now: () => fake.now(),
    sleep: (ms, signal) => fake.sleep(ms, signal),
    setTimeout(fn, ms) {
      const id = nextId++;
      const fire = (): void => {
        if (!timers.has(id)) return;
        clear(id);
        fn();
      };
      timers.set(id, { fake: fake.setTimeout(fire, ms), real: real.setTimeout(fire, ms) });
      return { id };
    },
    clearTimeout: (handle) => clear(handle.id),
  };
}
