/**
 * Everything the platform does that fires an outgoing-webhook event goes through this bus
 * (spec: Events, "What emits what"). Route modules emit; the delivery engine listens and decides
 * which endpoints receive what (event rules, filters, active/revoked).
 */
export interface PlatformEvent {
  /** The short event name, without the brand prefix: `post.created`, `achievement.awarded`. */
  event: string;
  payload: Record<string, unknown>;
  /** The entity ids a filter can match: wall id for posts and comments, form id, achievement id. */
  entityIds?: { wall?: number; form?: number; achievement?: number };
  /** Send only to this endpoint (the ping). */
  onlyEndpoint?: number;
}

export type EventListener = (event: PlatformEvent) => void;

export class EventBus {
  private readonly listeners = new Set<EventListener>();

  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: PlatformEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
