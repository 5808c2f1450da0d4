import type { AnyEndpoint } from '../endpoint';
import { commentEndpoints, mediaEndpoints, postEndpoints, wallEndpoints } from './content';
import { announcementEndpoints, calendarEntryEndpoints, confirmationEndpoints, eventEndpoints } from './publishing';
import { botEndpoints, groupEndpoints, userEndpoints } from './directory';
import { achievementEndpoints } from './achievements';
import { statsEndpoints } from './stats';
import { webhookEndpoints } from './webhooks';
import { incomingWebhookEndpoints } from './incoming';
import { messagingEndpoints } from './messaging';
import { formEndpoints } from './forms';
import { learningEndpoints } from './learning';
import { referenceEndpoints } from './reference';

/**
 * Every endpoint of the platform API, keyed by id.
 *
 * @example
 * const post = await caller.call(endpoints['posts.create'], { params: { wall_id: 3 }, body: { body: 'Hello' } });
 */
export const endpoints = {
  ...wallEndpoints,
  ...postEndpoints,
  ...commentEndpoints,
  ...mediaEndpoints,
  ...announcementEndpoints,
  ...confirmationEndpoints,
  ...eventEndpoints,
  ...calendarEntryEndpoints,
  ...userEndpoints,
  ...groupEndpoints,
  ...botEndpoints,
  ...achievementEndpoints,
  ...statsEndpoints,
  ...webhookEndpoints,
  ...incomingWebhookEndpoints,
  ...messagingEndpoints,
  ...formEndpoints,
  ...learningEndpoints,
  ...referenceEndpoints,
};

export type Endpoints = typeof endpoints;
export type EndpointId = keyof Endpoints;

/** The same endpoints as a list, in catalogue order. */
export const endpointList: readonly AnyEndpoint[] = Object.values(endpoints);

/** An endpoint of the catalog by its id (`'posts.create'`), or undefined for an id it does not have. */
export function endpointById(id: string): AnyEndpoint | undefined {
  return Object.hasOwn(endpoints, id) ? (endpoints as Record<string, AnyEndpoint>)[id] : undefined;
}
