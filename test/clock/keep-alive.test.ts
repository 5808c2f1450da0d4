import { describe, expect, it, vi } from 'vitest';
import { AdjustableClock, keepAlive } from '../../src/clock';

/** Lets settled renewals schedule their next beat. */
const turn = () => new Promise((r) => setTimeout(r, 0));

describe('keepAlive', () => {
  it('renews at once when the clock is moved forward, before the timers the move made due run', async () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    const order: string[] = [];
    const stop = keepAlive(clock, 20_000, async () => {
      order.push('renew');
    });
    clock.setTimeout(() => order.push('next worker looks for work'), 100);
    clock.advance(3_600_000);
    await turn();
    expect(order[0]).toBe('renew');
    expect(order).toContain('next worker looks for work');
    stop();
    clock.advance(3_600_000);
    await turn();
    expect(order.filter((o) => o === 'renew').length).toBeLessThanOrEqual(2);
  });

  it('does not renew when the clock is moved back', async () => {
    const clock = new AdjustableClock({ start: 100_000, frozen: true });
    const renew = vi.fn(async () => true);
    const stop = keepAlive(clock, 20_000, renew);
    clock.set(0);
    await turn();
    expect(renew).not.toHaveBeenCalled();
    stop();
  });

  it('renews every interval on the clock until stopped, and never after', async () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    const renew = vi.fn(async () => true);
    const stop = keepAlive(clock, 20_000, renew);
    clock.advance(19_999);
    await turn();
    expect(renew).not.toHaveBeenCalled();
    for (let beat = 1; beat <= 3; beat++) {
      clock.advance(20_000);
      await vi.waitFor(() => expect(renew).toHaveBeenCalledTimes(beat));
      await turn();
    }
    stop();
    clock.advance(60_000);
    await turn();
    expect(renew).toHaveBeenCalledTimes(3);
  });

  it('tells a failed renewal and keeps beating', async () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    const errors: unknown[] = [];
    const renew = vi.fn(async () => {
      throw new Error('store down');
    });
    const stop = keepAlive(clock, 1_000, renew, (error) => errors.push(error));
    clock.advance(1_000);
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    await turn();
    clock.advance(1_000);
    await vi.waitFor(() => expect(renew).toHaveBeenCalledTimes(2));
    stop();
  });
});
