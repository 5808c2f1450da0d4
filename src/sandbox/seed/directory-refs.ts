import { z } from 'zod';
import type { SandboxContext } from '../context';

const Id = z.number().int().positive();

/**
 * What the directory seed wrote, for the other sandbox modules and for tests: read it with
 * `directoryRefs(ctx)` (meta key `seed.directory`). Written by the `demo` and `large` seeds (`large`
 * is the demo directory plus generated users); absent after `empty`.
 *
 * Ids are deterministic for a given seed; the birthday and anniversary lists depend on the sandbox's
 * today at seed time (they are computed from `ctx.today()`).
 */
export const DirectorySeedRefsSchema = z.object({
  /** The base seed's users (seed/base.ts): the admin owning `svc_sandbox_token`, the company user, the system user. */
  admin_user_id: Id,
  company_user_id: Id,
  system_user_id: Id,
  /** Department group ids by name: Engineering, Sales, People, Operations. */
  departments: z.record(z.string(), Id),
  /** Profession group ids by name: Engineer, Advisor. */
  professions: z.record(z.string(), Id),
  /** A custom group (`is_open: true`) with a few members. */
  custom_group_id: Id,
  /** A system group holding everyone; never returned by /groups. */
  system_group_id: Id,
  /** The company-wide wall (named "Company", scoped to no group). */
  company_wall_id: Id,
  /** Each department's wall id, by department name. */
  department_walls: z.record(z.string(), Id),
  /** The manager of each department (membership `is_manager` and the top-level flag), by department name. */
  managers: z.record(z.string(), Id),
  manager_ids: z.array(Id),
  kiosk_user_id: Id,
  shadow_user_id: Id,
  /** An invited user who has not registered (status pending): absent from /users until registered. */
  pending_user_id: Id,
  deactivated_user_id: Id,
  /** A user synced from an external system (`external_id` set, synced hire date): cannot be deleted. */
  synced_user_id: Id,
  /** Another synced user whose manual hire date overrides the synced one. */
  manual_hire_user_id: Id,
  /** What `manual_hire_user_id`'s `hired_at` must read (the manual date) and the synced one it overrides. */
  manual_hire: z.object({ manual: z.string(), synced: z.string() }),
  /** A bot user (kind bot), the author of some seeded content. */
  bot_user_id: Id,
  /** Registered users whose date of birth falls on today's month-day (two, different years). */
  birthday_today_user_ids: z.array(Id),
  /** Registered users hired on today's month-day, 1 and 5 years ago (4 and 8 when today is Feb 29). */
  anniversary_today_user_ids: z.array(Id),
  /** A user born on February 29. */
  leap_day_birthday_user_id: Id,
  /** A handful of plain registered employees (no manager, no special kind), across departments. */
  employee_ids: z.array(Id),
  /** Every listed (registered) user of the demo directory, admin included. */
  registered_user_ids: z.array(Id),
  /** The `large` seed's generated users: ids `first..last` inclusive; null for `demo`. */
  generated: z.object({ first_id: Id, last_id: Id, count: z.number().int().nonnegative() }).nullable(),
  /** The sandbox's today when the seed ran (YYYY-MM-DD, customer time zone). */
  seeded_on: z.string(),
});
export type DirectorySeedRefs = z.infer<typeof DirectorySeedRefsSchema>;

export const DIRECTORY_REFS_KEY = 'seed.directory';

/** The directory seed's refs, or undefined when the seed was `empty`. */
export function directoryRefs(ctx: SandboxContext): DirectorySeedRefs | undefined {
  const raw = ctx.db.getMeta(DIRECTORY_REFS_KEY);
  return raw === undefined ? undefined : DirectorySeedRefsSchema.parse(raw);
}
