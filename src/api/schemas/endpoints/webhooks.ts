// spec: Outgoing webhook management — endpoints belong to the token that created them.
import { PaginationQuerySchema } from '../query';
import { OutgoingWebhookSchema, WebhookCreateSchema, WebhookPingResultSchema, WebhookSecretSchema, WebhookUpdateSchema } from '../webhook';
import { endpoint } from './define';

const SECTION = 'Outgoing webhook management';

export const webhookEndpoints = {
  'webhooks.list': endpoint({
    id: 'webhooks.list', method: 'GET', path: '/webhooks', scope: 'read:webhooks', section: SECTION,
    summary: "The calling token's webhook endpoints.", query: PaginationQuerySchema, responseKind: 'list', response: OutgoingWebhookSchema,
  }),
  'webhooks.get': endpoint({
    id: 'webhooks.get', method: 'GET', path: '/webhooks/{id}', scope: 'read:webhooks', section: SECTION,
    summary: 'One webhook endpoint (secret masked).', responseKind: 'single', response: OutgoingWebhookSchema, errors: [404],
  }),
  'webhooks.secret': endpoint({
    id: 'webhooks.secret', method: 'GET', path: '/webhooks/{id}/secret', scope: 'read:webhooks', section: SECTION,
    summary: 'The full signing secret.', responseKind: 'single', response: WebhookSecretSchema, errors: [404],
  }),
  'webhooks.create': endpoint({
    id: 'webhooks.create', method: 'POST', path: '/webhooks', scope: 'write:webhooks', section: SECTION,
    summary: 'Creates an active endpoint and issues a signing secret; 422 for an unknown event name.', body: WebhookCreateSchema,
    responseKind: 'single', response: OutgoingWebhookSchema, errors: [422], creates: true,
  }),
  'webhooks.update': endpoint({
    id: 'webhooks.update', method: 'PUT', path: '/webhooks/{id}', scope: 'write:webhooks', section: SECTION,
    summary: 'Changes the sent fields; `events` (with `filters`) replaces the event rules.', body: WebhookUpdateSchema,
    responseKind: 'single', response: OutgoingWebhookSchema, errors: [404, 422],
  }),
  'webhooks.revoke': endpoint({
    id: 'webhooks.revoke', method: 'POST', path: '/webhooks/{id}/revoke', scope: 'write:webhooks', section: SECTION,
    summary: 'Revokes the endpoint for good (record and logs kept).', responseKind: 'single', response: OutgoingWebhookSchema, errors: [404],
  }),
  'webhooks.toggle': endpoint({
    id: 'webhooks.toggle', method: 'POST', path: '/webhooks/{id}/toggle', scope: 'write:webhooks', section: SECTION,
    summary: 'Flips `is_active`.', responseKind: 'single', response: OutgoingWebhookSchema, errors: [404],
  }),
  'webhooks.ping': endpoint({
    id: 'webhooks.ping', method: 'POST', path: '/webhooks/{id}/ping', scope: 'write:webhooks', section: SECTION,
    summary: 'Sends a signed `service.test` delivery; answers `{ ok, status }`.', responseKind: 'raw', response: WebhookPingResultSchema,
    errors: [404],
  }),
};
