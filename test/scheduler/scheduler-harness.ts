import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdjustableClock } from '../../src/clock';
import type { JobRunRequest, SchedulerLogger } from '../../src/scheduler';
import { openStore, type Store } from '../../src/store';

/** Monday 2026-03-23 08:30 UTC (09:30 in Berlin): a few minutes before many slots of the tests. */
export const START = Date.UTC(2026, 2, 23, 8, 30, 0);

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown> | undefined;
}

/** A logger that keeps what it is told, for assertions. */
export function recordingLogger(): SchedulerLogger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: LogLine['level']) => (fields: Record<string, unknown> | undefined, message: string) => void lines.push({ level, message, fields });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A `runJob` that records each call and lets the test decide how it ends (default: at once). */
export function recordingJob(behaviour: (run: JobRunRequest) => Promise<void> = async () => undefined) {
  const runs: JobRunRequest[] = [];
  const runJob = async (run: JobRunRequest): Promise<void> => {
    runs.push(run);
    await behaviour(run);
  };
  return { runs, runJob };
}

/** A SQLite file in a temp dir, opened as many times as asked (each open is one "replica"). */
export async function sqliteFile(): Promise<{ open(clock: AdjustableClock): Promise<Store>; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'intrabot-scheduler-'));
  const path = join(dir, 'intrabot.db');
  return {
    open: (clock) => openStore({ kind: 'sqlite', path }, { clock }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Lets timers that became due and the store work after them settle. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A promise with its resolve, for jobs that end when the test says. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
