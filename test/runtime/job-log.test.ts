import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { SandboxControl } from '../../src/testing';
import { startLoggedRuntime, type LoggedRuntime } from '../helpers/logged-runtime';

const MINUTE = 60_000;

/** The runtime on an app of the test's own, whose lines the test reads (JSON): `npm start` logs at `info` (30), debug is 20. */
describe("a job's log line", () => {
  const clock = new AdjustableClock({ start: Date.parse('2026-06-01T08:00:30Z') });
  let logged: LoggedRuntime;

  beforeAll(async () => {
    logged = await startLoggedRuntime({ clock, botsDir: 'test/fixtures/bots-jobs', level: 'debug' });
  });
  afterAll(async () => logged?.close());

  it('is left out at the info level for a scheduled run that sent nothing, and kept, with its count, for one that sent', async () => {
    const platform = new SandboxControl(logged.sandbox.baseUrl);
    clock.advance(MINUTE);
    const finished = await platform.waitFor(
      async () => logged.lines.filter((l) => String(l.msg).startsWith('job finished')).map((l) => [l.job, l.level, l.msg, l.sent]),
      (found) => found.length === 2,
    );
    expect(finished).toEqual(
      expect.arrayContaining([
        ['quiet', 20, 'job finished, nothing sent', 0],
        ['loud', 30, 'job finished', 1],
      ]),
    );
    expect(logged.lines.filter((l) => l.msg === 'job failed')).toEqual([]);
  });
});
