import { achievementRefs, type AchievementSeedRefs } from '../sandbox/seed/achievements';
import { directoryRefs, type DirectorySeedRefs } from '../sandbox/seed/directory-refs';
import type { Sandbox } from '../sandbox/sandbox';

export type { AchievementSeedRefs, DirectorySeedRefs };

/** A started pair, or anything else holding a sandbox started in this process. */
export interface HasSandbox {
  sandbox: Sandbox;
}

/**
 * The ids the demo seed gave its employees, walls, departments and chats (undefined after the `empty`
 * seed), so a test names "an employee" or "the Company wall" without hard-coding ids.
 *
 * @example
 * const refs = directoryRefsOf(pair)!;
 * await pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: '/hello' });
 */
export function directoryRefsOf(pair: HasSandbox): DirectorySeedRefs | undefined {
  return directoryRefs(pair.sandbox.ctx);
}

/** The ids of the achievements the demo seed made (a public custom one, a draft...), undefined after `empty`. */
export function achievementRefsOf(pair: HasSandbox): AchievementSeedRefs | undefined {
  return achievementRefs(pair.sandbox.ctx);
}
