// spec: Achievements — every endpoint answers 403 when the feature is disabled for the company.
import { AchievementCreateSchema, AchievementListQuerySchema, AchievementSchema, AchievementUpdateSchema } from '../achievement';
import { AwardCreateSchema, AwardListQuerySchema, AwardSchema } from '../award';
import { endpoint } from './define';

const SECTION = 'Achievements';

export const achievementEndpoints = {
  'achievements.list': endpoint({
    id: 'achievements.list', method: 'GET', path: '/achievements', scope: 'read:achievements', section: SECTION,
    summary: 'Paginated achievements, newest first, drafts included.', query: AchievementListQuerySchema,
    responseKind: 'list', response: AchievementSchema, errors: [403, 422],
  }),
  'achievements.get': endpoint({
    id: 'achievements.get', method: 'GET', path: '/achievements/{id}', scope: 'read:achievements', section: SECTION,
    summary: 'One achievement.', responseKind: 'single', response: AchievementSchema, errors: [403, 404],
  }),
  'achievements.create': endpoint({
    id: 'achievements.create', method: 'POST', path: '/achievements', scope: 'write:achievements', section: SECTION,
    summary: 'Creates an achievement (a draft unless `is_published`).', body: AchievementCreateSchema,
    responseKind: 'single', response: AchievementSchema, errors: [403, 422], creates: true,
  }),
  'achievements.update': endpoint({
    id: 'achievements.update', method: 'PUT', path: '/achievements/{id}', scope: 'write:achievements', section: SECTION,
    summary: 'Changes the sent fields (PUT and PATCH are equivalent); `is_published` toggles the state.',
    body: AchievementUpdateSchema, responseKind: 'single', response: AchievementSchema, errors: [403, 404, 422],
  }),
  'achievements.patch': endpoint({
    id: 'achievements.patch', method: 'PATCH', path: '/achievements/{id}', scope: 'write:achievements', section: SECTION,
    summary: 'Changes the sent fields (PUT and PATCH are equivalent); `is_published` toggles the state.',
    body: AchievementUpdateSchema, responseKind: 'single', response: AchievementSchema, errors: [403, 404, 422],
  }),
  'achievements.awards': endpoint({
    id: 'achievements.awards', method: 'GET', path: '/achievements/{id}/awards', scope: 'read:achievements', section: SECTION,
    summary: 'Paginated awards of an achievement, newest first, with `user` embedded.', query: AwardListQuerySchema,
    responseKind: 'meta-list', response: AwardSchema, errors: [403, 404],
  }),
  'achievements.award': endpoint({
    id: 'achievements.award', method: 'POST', path: '/achievements/{id}/awards', scope: 'write:achievements', section: SECTION,
    summary: 'Awards a published achievement, all rows or none; an identical row returns the existing award.',
    body: AwardCreateSchema, responseKind: 'array', response: AwardSchema, errors: [403, 404, 422], creates: true,
  }),
  'achievements.userAchievements': endpoint({
    id: 'achievements.userAchievements', method: 'GET', path: '/users/{id}/achievements', scope: 'read:achievements', section: SECTION,
    summary: "A user's awards on published achievements, newest first; not paginated; 404 for kiosk, bot and shadow users.",
    responseKind: 'array', response: AwardSchema, errors: [403, 404],
  }),
};
