import type { SandboxContext } from '../../context';
import { maskHeaderValues } from '../../delivery/delivery-headers';
import type { WebhookEndpointRecord } from '../../delivery/records';

/** spec: Outgoing webhook endpoint — the signing secret shows as its first 8 characters. */
export const SECRET_HINT_LENGTH = 8;

/**
 * spec: Outgoing webhook endpoint. Auth values are never returned, custom headers show their names
 * with masked values, and the secret only as a hint.
 */
export function serializeWebhook(ctx: SandboxContext, endpoint: WebhookEndpointRecord): Record<string, unknown> {
  return {
    id: endpoint.id,
    name: endpoint.name,
    url: endpoint.url,
    is_active: endpoint.is_active,
    events: endpoint.events,
    filters: endpoint.filters,
    auth_type: endpoint.auth_type,
    custom_headers: maskHeaderValues(endpoint.custom_headers),
    secret: endpoint.secret.slice(0, SECRET_HINT_LENGTH),
    total_deliveries: endpoint.total_deliveries,
    last_used_at: ctx.isoOrNull(endpoint.last_used_at),
    revoked_at: ctx.isoOrNull(endpoint.revoked_at),
    created_at: ctx.iso(endpoint.created_at),
    updated_at: ctx.iso(endpoint.updated_at),
  };
}
