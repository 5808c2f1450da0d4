import { redactSecrets } from '../api/errors';
import { CheckSkipped, type ConformanceCheck } from './check';
import type { ConformanceSession } from './conformance-session';
import { describeError } from './expect';

export type CheckOutcome = 'pass' | 'fail' | 'skipped';

/** One row of the parity table. */
export interface CheckResult {
  id: string;
  title: string;
  section: string;
  readOnly: boolean;
  outcome: CheckOutcome;
  /** Why it failed or was skipped; tokens redacted. */
  message?: string;
}

const WRITES_OFF = 'writes a record; not run against this host without --allow-writes';

/** Runs one check and turns whatever it throws into a result. */
export async function runCheck(check: ConformanceCheck, session: Pick<ConformanceSession, 'api' | 'ctx'>): Promise<CheckResult> {
  const row = { id: check.id, title: check.title, section: check.section, readOnly: check.readOnly };
  if (!check.readOnly && !session.ctx.allowWrites) return { ...row, outcome: 'skipped', message: WRITES_OFF };
  try {
    await check.run(session.api, session.ctx);
    return { ...row, outcome: 'pass' };
  } catch (error) {
    if (error instanceof CheckSkipped) return { ...row, outcome: 'skipped', message: redactSecrets(error.reason) };
    return { ...row, outcome: 'fail', message: redactSecrets(describeError(error)) };
  }
}

/** Runs `checks` one after another (they share the host's rate budget) and answers a result each. */
export async function runConformance(
  checks: readonly ConformanceCheck[],
  session: Pick<ConformanceSession, 'api' | 'ctx'>,
  onResult?: (result: CheckResult) => void,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    const result = await runCheck(check, session);
    onResult?.(result);
    results.push(result);
  }
  return results;
}
