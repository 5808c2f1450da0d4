import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import type { AwardRow } from '../schemas/award';
import { type BodyInput, type Id, type QueryInput, listing } from './types';

const e = {
  get: endpoints['achievements.get'],
  create: endpoints['achievements.create'],
  update: endpoints['achievements.update'],
  patch: endpoints['achievements.patch'],
  awards: endpoints['achievements.awards'],
  award: endpoints['achievements.award'],
  userAchievements: endpoints['achievements.userAchievements'],
};

/**
 * Achievements and awards (spec: Achievements). Awards are all or nothing; an identical row
 * (same user, same day) returns the existing award instead of a duplicate.
 *
 * @example
 * const [award] = await api.achievements.award(7, [{ user_id: 42, awarded_at: '2026-05-01' }]);
 */
export function achievementsResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['achievements.list']),
    get: (id: Id) => caller.call(e.get, { params: { id } }),
    create: (body: BodyInput<typeof e.create>) => caller.call(e.create, { body }),
    update: (id: Id, body: BodyInput<typeof e.update>) => caller.call(e.update, { params: { id }, body }),
    patch: (id: Id, body: BodyInput<typeof e.patch>) => caller.call(e.patch, { params: { id }, body }),
    award: (id: Id, rows: AwardRow[]) => caller.call(e.award, { params: { id }, body: { awards: rows } }),
    awards: (id: Id, query?: QueryInput<typeof e.awards>) => caller.call(e.awards, { params: { id }, query }),
    allAwards: (id: Id, query?: QueryInput<typeof e.awards>) => caller.paginate(e.awards, { params: { id }, query }),
    /** Not paginated; 404 for kiosk, bot and shadow users. */
    userAchievements: (userId: Id) => caller.call(e.userAchievements, { params: { id: userId } }),
  };
}
