import type { Caller } from '../caller';
import { wallsResource } from './walls';
import { postsResource } from './posts';
import { commentsResource } from './comments';
import { mediaResource } from './media';
import { announcementsResource } from './announcements';
import { confirmationsResource } from './confirmations';
import { eventsResource } from './events';
import { calendarEntriesResource } from './calendar-entries';
import { usersResource } from './users';
import { groupsResource } from './groups';
import { botsResource } from './bots';
import { achievementsResource } from './achievements';
import { statsResource } from './stats';
import { webhooksResource } from './webhooks';
import { incomingWebhooksResource } from './incoming-webhooks';
import { chatMessagesResource, directMessagesResource, feedbackResource, notificationsResource, tokenResource } from './messaging';
import { formResponsesResource, formsResource } from './forms';
import { articlesResource, coursesResource, handbooksResource, journeysResource } from './learning';
import {
  calendarEventTypesResource,
  certificateTypesResource,
  certificatesResource,
  localesResource,
  managerHubResource,
  orgChartResource,
  staffCardsResource,
} from './reference';

/** Each resource group's maker, by its name on the client (`api.walls`, `api.posts`...). */
export const RESOURCE_GROUPS = {
  walls: wallsResource,
  posts: postsResource,
  comments: commentsResource,
  media: mediaResource,
  announcements: announcementsResource,
  confirmations: confirmationsResource,
  events: eventsResource,
  calendarEntries: calendarEntriesResource,
  users: usersResource,
  groups: groupsResource,
  bots: botsResource,
  achievements: achievementsResource,
  stats: statsResource,
  webhooks: webhooksResource,
  incomingWebhooks: incomingWebhooksResource,
  token: tokenResource,
  notifications: notificationsResource,
  chatMessages: chatMessagesResource,
  directMessages: directMessagesResource,
  feedback: feedbackResource,
  forms: formsResource,
  formResponses: formResponsesResource,
  journeys: journeysResource,
  staffCards: staffCardsResource,
  handbooks: handbooksResource,
  courses: coursesResource,
  articles: articlesResource,
  certificates: certificatesResource,
  certificateTypes: certificateTypesResource,
  calendarEventTypes: calendarEventTypesResource,
  locales: localesResource,
  orgChart: orgChartResource,
  managerHub: managerHubResource,
};

/**
 * Typed methods for every endpoint of the platform API, grouped by resource. Each method is one
 * `caller.call` (or `caller.paginate` for `all`), so the caller decides transport, pacing and retries.
 *
 * @example
 * const api = createResources(client);
 * const wall = await api.walls.get(3);
 * await api.posts.create(wall.id, { body: `Hello ${wall.name}` });
 */
export function createResources(caller: Caller): Resources {
  return Object.fromEntries(Object.entries(RESOURCE_GROUPS).map(([name, make]) => [name, make(caller)])) as Resources;
}

/** Every resource group, as returned by `createResources`. */
export type Resources = { [K in keyof typeof RESOURCE_GROUPS]: ReturnType<(typeof RESOURCE_GROUPS)[K]> };
