import type { ConformanceCheck } from './check';
import {
  achievementReadChecks,
  awardChecks,
  contentChecks,
  directoryChecks,
  errorAndAuthChecks,
  eventChecks,
  paginationChecks,
  postChecks,
  webhookChecks,
} from './checks';

/**
 * Every conformance check, grouped by area: the suite that `intrabot conformance` runs and
 * `test/sandbox/conformance.test.ts` runs one test per entry of.
 */
export const CONFORMANCE_CHECKS: readonly ConformanceCheck[] = [
  ...paginationChecks,
  ...errorAndAuthChecks,
  ...directoryChecks,
  ...achievementReadChecks,
  ...contentChecks,
  ...postChecks,
  ...eventChecks,
  ...awardChecks,
  ...webhookChecks,
];
