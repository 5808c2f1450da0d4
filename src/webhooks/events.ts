/**
 * The platform's event names, without the brand prefix (spec: Events, "Event names (the brand
 * part is written `service`)"). Bots and manifests use these short names; each tenant's
 * `event_prefix` turns them into what the platform sends (`service.post.created`).
 */
export const EVENT_NAMES = [
  'post.created',
  'comment.created',
  'comment.updated',
  'comment.deleted',
  'announcement.published',
  'announcement.confirmed',
  'formresponse.created',
  'formresponse.updated',
  'formresponse.comment.created',
  'formresponse.comment.deleted',
  'formresponse.alarm_triggered',
  'user.registered',
  'onboarding.completed',
  'achievement.awarded',
  'test',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/**
 * Outgoing reports travel as signed deliveries too (spec: Outgoing reports). Only the daily name is
 * shown; the weekly one is our reading of the same pattern (the sandbox sends it).
 */
export const REPORT_NAMES = ['todoliststats.daily', 'todoliststats.weekly'] as const;

export type ReportName = (typeof REPORT_NAMES)[number];

/** What an entity filter on an event selects: `walls`, `forms` or `achievements` in a manifest. */
export type FilterKind = 'walls' | 'forms' | 'achievements';

/**
 * Events whose webhook subscription may carry entity filters, and by what (spec: Outgoing webhook
 * management, "Filterable events"; spec: Events, achievement.awarded "Filterable by achievement").
 */
export const EVENT_FILTERS: Readonly<Partial<Record<EventName, FilterKind>>> = {
  'post.created': 'walls',
  'comment.created': 'walls',
  'comment.updated': 'walls',
  'comment.deleted': 'walls',
  'formresponse.created': 'forms',
  'formresponse.updated': 'forms',
  'achievement.awarded': 'achievements',
};

export const DEFAULT_EVENT_PREFIX = 'service';

export function isEventName(name: string): name is EventName {
  return (EVENT_NAMES as readonly string[]).includes(name);
}

export function isReportName(name: string): name is ReportName {
  return (REPORT_NAMES as readonly string[]).includes(name);
}

/** The filter kind an event accepts, or `undefined` when it cannot be filtered. */
export function filterKindOf(name: EventName): FilterKind | undefined {
  return EVENT_FILTERS[name];
}

/**
 * The platform's name for a short event name.
 *
 * @example toPlatformEvent('post.created') // => 'service.post.created'
 * @example toPlatformEvent('post.created', 'acme') // => 'acme.post.created'
 */
export function toPlatformEvent(name: string, prefix = DEFAULT_EVENT_PREFIX): string {
  return `${prefix}.${name}`;
}

/**
 * The short name of a platform event name, or `undefined` when it does not carry `prefix`.
 *
 * @example fromPlatformEvent('acme.comment.created', 'acme') // => 'comment.created'
 */
export function fromPlatformEvent(fullName: string, prefix = DEFAULT_EVENT_PREFIX): string | undefined {
  const head = `${prefix}.`;
  if (!fullName.startsWith(head) || fullName.length === head.length) return undefined;
  return fullName.slice(head.length);
}
