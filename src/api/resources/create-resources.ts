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

/**
 * Typed methods for every endpoint of the platform API, grouped by resource. Each method is one
 * `caller.call` (or `caller.paginate` for `all`), so the caller decides transport, pacing and retries.
 *
 * @example
 * const api = createResources(client);
 * const wall = await api.walls.get(3);
 * await api.posts.create(wall.id, { body: `Hello ${wall.name}` });
 */
export function createResources(caller: Caller) {
  return {
    walls: wallsResource(caller),
    posts: postsResource(caller),
    comments: commentsResource(caller),
    media: mediaResource(caller),
    announcements: announcementsResource(caller),
    confirmations: confirmationsResource(caller),
    events: eventsResource(caller),
    calendarEntries: calendarEntriesResource(caller),
    users: usersResource(caller),
    groups: groupsResource(caller),
    bots: botsResource(caller),
    achievements: achievementsResource(caller),
    stats: statsResource(caller),
    webhooks: webhooksResource(caller),
    incomingWebhooks: incomingWebhooksResource(caller),
    token: tokenResource(caller),
    notifications: notificationsResource(caller),
    chatMessages: chatMessagesResource(caller),
    directMessages: directMessagesResource(caller),
    feedback: feedbackResource(caller),
    forms: formsResource(caller),
    formResponses: formResponsesResource(caller),
    journeys: journeysResource(caller),
    staffCards: staffCardsResource(caller),
    handbooks: handbooksResource(caller),
    courses: coursesResource(caller),
    articles: articlesResource(caller),
    certificates: certificatesResource(caller),
    certificateTypes: certificateTypesResource(caller),
    calendarEventTypes: calendarEventTypesResource(caller),
    locales: localesResource(caller),
    orgChart: orgChartResource(caller),
    managerHub: managerHubResource(caller),
  };
}

/** Every resource group, as returned by `createResources`. */
export type Resources = ReturnType<typeof createResources>;
