import { DEFAULT_EVENT_PREFIX, filterKindOf, isEventName, type FilterKind } from '../../webhooks/events';
import type { PlatformEvent } from '../events';
import type { WebhookEndpointRecord } from './records';

/** The platform's full name of a bus event: `post.created` → `service.post.created`. */
export function fullEventName(shortName: string): string {
  return `${DEFAULT_EVENT_PREFIX}.${shortName}`;
}

/** The short name of a full event name, or undefined when it names no known event. */
export function shortEventName(fullName: string): string | undefined {
  const head = `${DEFAULT_EVENT_PREFIX}.`;
  if (!fullName.startsWith(head)) return undefined;
  const short = fullName.slice(head.length);
  return isEventName(short) ? short : undefined;
}

/** The filter kind of a full event name (walls, forms, achievements), or undefined when not filterable. */
export function filterKindOfFull(fullName: string): FilterKind | undefined {
  const short = shortEventName(fullName);
  return short && isEventName(short) ? filterKindOf(short) : undefined;
}

const ENTITY_OF: Record<FilterKind, 'wall' | 'form' | 'achievement'> = { walls: 'wall', forms: 'form', achievements: 'achievement' };

/**
 * Whether an endpoint receives an event: active, not revoked, subscribed, and, when it filters that
 * event, the event's entity is among the filter's ids (spec: Outgoing webhook management,
 * "Filterable events ... An event without a filter fires for all matching activity").
 */
export function endpointReceives(endpoint: WebhookEndpointRecord, event: PlatformEvent): boolean {
  if (!endpoint.is_active || endpoint.revoked_at !== null) return false;
  if (event.onlyEndpoint !== undefined && event.onlyEndpoint !== endpoint.id) return false;
  const name = fullEventName(event.event);
  if (!endpoint.events.includes(name)) return false;
  const kind = filterKindOfFull(name);
  const ids = endpoint.filters[name];
  if (!kind || !ids || ids.length === 0) return true;
  const entity = event.entityIds?.[ENTITY_OF[kind]];
  return entity !== undefined && ids.includes(entity);
}
