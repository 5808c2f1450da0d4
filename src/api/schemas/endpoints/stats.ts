// spec: Statistics — cached server side (1 h; engagement 24 h).
import { AdoptionQuerySchema, AdoptionSchema, ContentActivitySchema, EngagementPeriodSchema, EngagementQuerySchema, UsersSummarySchema } from '../stats';
import { endpoint } from './define';

export const statsEndpoints = {
  'stats.users': endpoint({
    id: 'stats.users',
    method: 'GET',
    path: '/stats/users',
    scope: 'read:stats',
    section: 'Statistics',
    summary: 'User counts: total, registered, active and new over several windows.',
    responseKind: 'single',
    response: UsersSummarySchema,
  }),
  'stats.engagement': endpoint({
    id: 'stats.engagement',
    method: 'GET',
    path: '/stats/engagement',
    scope: 'read:stats',
    section: 'Statistics',
    summary: 'Engagement per period (day, week or month).',
    query: EngagementQuerySchema,
    responseKind: 'array',
    response: EngagementPeriodSchema,
    errors: [422],
  }),
  'stats.adoption': endpoint({
    id: 'stats.adoption',
    method: 'GET',
    path: '/stats/adoption',
    scope: 'read:stats',
    section: 'Statistics',
    summary: 'Adoption rate overall and per department.',
    query: AdoptionQuerySchema,
    responseKind: 'single',
    response: AdoptionSchema,
  }),
  'stats.content': endpoint({
    id: 'stats.content',
    method: 'GET',
    path: '/stats/content',
    scope: 'read:stats',
    section: 'Statistics',
    summary: 'Content activity this week, last week and in total.',
    responseKind: 'single',
    response: ContentActivitySchema,
  }),
};
