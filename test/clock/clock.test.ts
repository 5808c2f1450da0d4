import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';

describe('AdjustableClock', () => {
  it('stands still when frozen and moves only when advanced', () => {
    const clock = new AdjustableClock({ start: 1_000_000, frozen: true });
    expect(clock.now()).toBe(1_000_000);
    clock.advance(30 * 60_000);
    expect(clock.now()).toBe(1_000_000 + 30 * 60_000);
  });

  it('wakes a timer as soon as an advance makes it due, without waiting real time', async () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('later'), 3_600_000);
    clock.setTimeout(() => fired.push('sooner'), 60_000);
    clock.advance(59_999);
    await new Promise((r) => setTimeout(r, 5));
    expect(fired).toEqual([]);
    clock.advance(3_600_000);
    await new Promise((r) => setTimeout(r, 5));
    expect(fired).toEqual(['sooner', 'later']);
  });

  it('flows with real time when not frozen, shifted by the set time', async () => {
    const start = Date.UTC(2030, 0, 1);
    const clock = new AdjustableClock({ start });
    await new Promise((r) => setTimeout(r, 20));
    expect(clock.now()).toBeGreaterThanOrEqual(start + 15);
    expect(clock.now()).toBeLessThan(start + 5_000);
  });

  it('rejects a sleep when its signal aborts and never fires the timer', async () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    const controller = new AbortController();
    const slept = clock.sleep(1_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(slept).rejects.toThrow('stop');
    expect(clock.pendingTimers).toBe(0);
  });
});
