import { describe, expect, it, vi } from 'vitest';
import { AdjustableClock } from '../../src/clock';

describe('AdjustableClock', () => {
  it("keeps a timer's remaining wait when the clock is moved back, instead of lengthening it by the move", async () => {
    const clock = new AdjustableClock({ start: 7 * 86_400_000, frozen: true });
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('pause'), 60_000);
    clock.advance(20_000);
    clock.set(0);
    clock.advance(39_999);
    await new Promise((r) => setTimeout(r, 5));
    expect(fired).toEqual([]);
    clock.advance(1);
    await new Promise((r) => setTimeout(r, 5));
    expect(fired).toEqual(['pause']);
  });

  it('tells its jump listeners of a move before running the timers it made due', async () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    const seen: string[] = [];
    clock.setTimeout(() => seen.push('timer'), 1_000);
    const stop = clock.onJump((from, to) => seen.push(`jump ${from}->${to}`));
    clock.advance(5_000);
    clock.set(2_000);
    await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual(['jump 0->5000', 'jump 5000->2000', 'timer']);
    stop();
    clock.advance(1);
    expect(seen).toHaveLength(3);
  });

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

  it('runs `speed` times as fast as real time from where wallStart anchors it, so processes given the same anchor agree', () => {
    const wallStart = Date.now() - 250;
    const a = new AdjustableClock({ start: 1_000_000, wallStart, speed: 4 });
    const b = new AdjustableClock({ start: 1_000_000, wallStart, speed: 4 });
    const [ta, tb] = [a.now(), b.now()];
    expect(ta).toBeGreaterThanOrEqual(1_000_000 + 1_000);
    expect(Math.abs(ta - tb)).toBeLessThanOrEqual(4 * 5);
    a.set(5_000_000);
    expect(a.now()).toBeGreaterThanOrEqual(5_000_000);
    expect(a.now()).toBeLessThan(5_000_000 + 4 * 1_000);
  });

  it("fires a sped-up clock's timers at its speed: a one-minute wait of a 1000x clock ends within real seconds", async () => {
    const clock = new AdjustableClock({ speed: 1_000 });
    const started = clock.now();
    await clock.sleep(60_000);
    expect(clock.now() - started).toBeGreaterThanOrEqual(60_000);
  });

  it('refuses a speed that is not a positive number', () => {
    expect(() => new AdjustableClock({ speed: 0 })).toThrow(RangeError);
    expect(() => new AdjustableClock({ speed: Number.NaN })).toThrow(RangeError);
  });

  it('stands still once frozen, with its timers waiting, and flows again from there when resumed', async () => {
    const clock = new AdjustableClock({ speed: 1_000 });
    const fired: string[] = [];
    clock.freeze();
    const at = clock.now();
    clock.setTimeout(() => fired.push('timer'), 50);
    await new Promise((r) => setTimeout(r, 20));
    expect(clock.now()).toBe(at);
    expect(fired).toEqual([]);
    clock.resume();
    // waits for the timer itself: a sleep's timer set after it may fire first within the same real
    // millisecond, when the timer is re-armed for the part of a millisecond it was early
    await vi.waitFor(() => expect(fired).toEqual(['timer']));
    await clock.sleep(100);
    expect(clock.now()).toBeGreaterThanOrEqual(at + 100);
  });
});
