import { describe, expect, it } from 'vitest';
import { AdjustableClock, WorkerLanes } from '../../src/clock';

describe('WorkerLanes', () => {
  it('takes work until none is left, then waits to be woken, without the clock moving', async () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    let queued = 3;
    const done: number[] = [];
    const lanes = new WorkerLanes({
      clock,
      lanes: 2,
      pollMs: 60_000,
      worker: { takeOne: async () => (queued > 0 ? (done.push(queued--), true) : false), takeFailed: () => undefined },
    });
    lanes.start();
    await expect.poll(() => done).toHaveLength(3);
    queued = 1;
    lanes.wake();
    await expect.poll(() => done).toHaveLength(4);
    await lanes.stop();
  });

  it('looks again after pollMs on the clock when not woken', async () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    let looks = 0;
    const lanes = new WorkerLanes({ clock, lanes: 1, pollMs: 500, worker: { takeOne: async () => (looks++, false), takeFailed: () => undefined } });
    lanes.start();
    await expect.poll(() => looks).toBe(1);
    clock.advance(500);
    await expect.poll(() => looks).toBe(2);
    await lanes.stop();
  });

  it('goes on after a failed take, telling the error', async () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    const errors: unknown[] = [];
    let calls = 0;
    const lanes = new WorkerLanes({
      clock,
      lanes: 1,
      pollMs: 100,
      worker: {
        takeOne: async () => {
          calls++;
          if (calls === 1) throw new Error('store down');
          return false;
        },
        takeFailed: (error) => void errors.push(error),
      },
    });
    lanes.start();
    await expect.poll(() => errors).toHaveLength(1);
    clock.advance(100);
    await expect.poll(() => calls).toBe(2);
    await lanes.stop();
  });

  it('stops taking work once stopped, and waits for the take in progress', async () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    let release: () => void = () => undefined;
    let finished = false;
    const lanes = new WorkerLanes({
      clock,
      lanes: 1,
      pollMs: 100,
      worker: {
        takeOne: () =>
          new Promise<boolean>((resolve) => {
            release = () => {
              finished = true;
              resolve(true);
            };
          }),
        takeFailed: () => undefined,
      },
    });
    lanes.start();
    const stopped = lanes.stop();
    release();
    await stopped;
    expect(finished).toBe(true);
  });
});
