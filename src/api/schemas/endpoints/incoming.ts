// spec: Incoming webhooks — the trigger takes the token in the URL; management paths are our choice.
import { PaginationQuerySchema } from '../query';
import {
  IncomingPayloadSchema,
  IncomingResultSchema,
  IncomingWebhookCreateSchema,
  IncomingWebhookCreatedSchema,
  IncomingWebhookSchema,
  IncomingWebhookUpdateSchema,
} from '../incoming-webhook';
import { endpoint } from './define';

const SECTION = 'Incoming webhooks';

export const incomingWebhookEndpoints = {
  'incomingWebhooks.send': endpoint({
    id: 'incomingWebhooks.send', method: 'POST', path: '/incoming/{token}', scope: null, auth: 'url-token', section: SECTION,
    summary: "Pushes a chat message, wall post, direct message or calendar entry, per the token's action.",
    // 200 rather than 201: chat-webhook senders expect the plain success of the services they imitate
    body: IncomingPayloadSchema, responseKind: 'single', response: IncomingResultSchema, successStatus: 200,
    errors: [401, 404, 422, 429], creates: true,
  }),
  'incomingWebhooks.list': endpoint({
    id: 'incomingWebhooks.list', method: 'GET', path: '/incoming-webhooks', scope: 'read:incoming_webhooks', section: SECTION, shown: false,
    summary: "The calling token's incoming webhooks (never their URL or token).", query: PaginationQuerySchema,
    responseKind: 'list', response: IncomingWebhookSchema,
  }),
  'incomingWebhooks.get': endpoint({
    id: 'incomingWebhooks.get', method: 'GET', path: '/incoming-webhooks/{id}', scope: 'read:incoming_webhooks', section: SECTION, shown: false,
    summary: 'One incoming webhook.', responseKind: 'single', response: IncomingWebhookSchema, errors: [404],
  }),
  'incomingWebhooks.create': endpoint({
    id: 'incomingWebhooks.create', method: 'POST', path: '/incoming-webhooks', scope: 'write:incoming_webhooks', section: SECTION, shown: false,
    summary: 'Creates an incoming webhook bound to one action and target; the answer carries `url` and `token`, this once.',
    body: IncomingWebhookCreateSchema, responseKind: 'single', response: IncomingWebhookCreatedSchema, errors: [422], creates: true,
  }),
  'incomingWebhooks.update': endpoint({
    id: 'incomingWebhooks.update', method: 'PUT', path: '/incoming-webhooks/{id}', scope: 'write:incoming_webhooks', section: SECTION, shown: false,
    summary: 'Changes the name or target of an incoming webhook.', body: IncomingWebhookUpdateSchema,
    responseKind: 'single', response: IncomingWebhookSchema, errors: [404, 422],
  }),
  'incomingWebhooks.revoke': endpoint({
    id: 'incomingWebhooks.revoke', method: 'POST', path: '/incoming-webhooks/{id}/revoke', scope: 'write:incoming_webhooks', section: SECTION,
    shown: false, summary: 'Revokes an incoming webhook for good: its URL stops working.', responseKind: 'single', response: IncomingWebhookSchema,
    errors: [404],
  }),
};
