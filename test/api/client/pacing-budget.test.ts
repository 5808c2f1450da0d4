import { describe, expect, it } from 'vitest';
import { API, json, platformDouble, settle, START, testEndpoints as ep } from './platform-double';

/**
 * A platform double with a real fixed-window budget: 60 per minute, headers on every answer,
 * 429 for anything over, part of the first window already spent by someone else. Many concurrent calls must all succeed without a single 429, within
 * about N/L minutes (DESIGN.md: Targets, Pacing).
 */
function budgetedPlatform(limit: number, resetForm: 'seconds' | 'epoch') {
  const double = platformDouble();
  // another process already spent 20 of a window that started 30 s ago: only the headers tell
  let windowStart = START - 30_000;
  let used = 20;
  const statuses: number[] = [];
  double.on(
    'GET',
    (p) => p.startsWith(`${API}/things/`),
    () => {
      const now = double.clock.now();
      if (now >= windowStart + 60_000) {
        windowStart = now - ((now - (START - 30_000)) % 60_000);
        used = 0;
      }
      const resetAt = windowStart + 60_000;
      const reset = resetForm === 'seconds' ? String(Math.ceil((resetAt - now) / 1000)) : String(Math.ceil(resetAt / 1000));
      if (used >= limit) {
        statuses.push(429);
        return json(429, {}, { 'retry-after': String(Math.ceil((resetAt - now) / 1000)) });
      }
      used += 1;
      statuses.push(200);
      const headers = { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(limit - used), 'x-ratelimit-reset': reset };
      return json(200, { data: { id: 1 } }, headers);
    },
    10_000,
  );
  return { ...double, statuses };
}

async function runAll(n: number, resetForm: 'seconds' | 'epoch') {
  const { client, clock, statuses } = budgetedPlatform(60, resetForm);
  let done = 0;
  const calls = Array.from({ length: n }, (_, i) =>
    client.call(ep.get, { params: { id: i } }).then(() => {
      done += 1;
    }),
  );
  while (done < n && clock.now() - START < 10 * 60_000) {
    await settle(3);
    if (done < n) clock.advance(500);
  }
  await Promise.all(calls);
  return { statuses, elapsedMs: clock.now() - START };
}

describe('pacing under a 60-per-minute budget (spec: Limits)', () => {
  it('sends 130 concurrent calls with no 429 in about N/L minutes (reset in seconds)', async () => {
    const { statuses, elapsedMs } = await runAll(130, 'seconds');
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expect(statuses).toHaveLength(130);
    expect(elapsedMs).toBeLessThanOrEqual(1.05 * ((130 + 20) / 60) * 60_000);
  });

  it('sends 130 concurrent calls with no 429 when the reset is an epoch', async () => {
    const { statuses, elapsedMs } = await runAll(130, 'epoch');
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expect(elapsedMs).toBeLessThanOrEqual(1.05 * ((130 + 20) / 60) * 60_000);
  });
});
