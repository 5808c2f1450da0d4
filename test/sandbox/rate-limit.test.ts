import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { SandboxRateLimiter } from '../../src/sandbox/http/rate-limit';

describe('the sandbox rate limiter (spec: Limits)', () => {
  it('refuses the 61st request of a minute and takes requests again in the next window', () => {
    const clock = new AdjustableClock({ start: 0, frozen: true });
    const limiter = new SandboxRateLimiter(clock);
    for (let i = 0; i < 60; i += 1) limiter.hit('token', 60);
    expect(() => limiter.hit('token', 60)).toThrow('Too Many Attempts.');
    clock.advance(60_000);
    expect(limiter.hit('token', 60)['x-ratelimit-remaining']).toBe('59');
  });

  it('starts a new window when the clock was moved back before the current one began', () => {
    const clock = new AdjustableClock({ start: 7 * 86_400_000, frozen: true });
    const limiter = new SandboxRateLimiter(clock);
    for (let i = 0; i < 60; i += 1) limiter.hit('token', 60);
    clock.set(0);
    expect(limiter.hit('token', 60)).toMatchObject({ 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '60' });
  });
});
