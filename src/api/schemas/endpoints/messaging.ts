// spec: Other endpoints that exist — token info, notifications, direct messages, pins, feedback.
// Shapes are our choice (spec: not shown), fixed in DESIGN.md where it names them.
import { TokenInfoSchema } from '../token';
import { NotificationCreateSchema, NotificationResultSchema } from '../notification';
import { DirectMessageCreateSchema, DirectMessageSchema } from '../direct-message';
import { ChatMessagePinSchema } from '../chat-message';
import { FeedbackCreateSchema, FeedbackSchema } from '../feedback';
import { NoContentSchema, endpoint } from './define';

const OTHER = 'Other endpoints that exist';

export const messagingEndpoints = {
  'token.get': endpoint({
    id: 'token.get',
    method: 'GET',
    path: '/token',
    scope: null,
    section: OTHER,
    shown: false,
    summary: 'Name, scopes and expiry of the calling token (any valid token).',
    responseKind: 'single',
    response: TokenInfoSchema,
  }),
  'notifications.send': endpoint({
    id: 'notifications.send',
    method: 'POST',
    path: '/notifications',
    scope: 'write:notifications',
    section: OTHER,
    shown: false,
    summary: 'Puts a notification in the activity feed of the targeted employees; answers how many matched.',
    body: NotificationCreateSchema,
    responseKind: 'single',
    response: NotificationResultSchema,
    errors: [422],
    creates: true,
  }),
  'directMessages.send': endpoint({
    id: 'directMessages.send',
    method: 'POST',
    path: '/users/{id}/messages',
    scope: 'write:chat_messages',
    section: OTHER,
    shown: false,
    summary: "Sends a direct message from a bot user to one user's private chat.",
    body: DirectMessageCreateSchema,
    responseKind: 'single',
    response: DirectMessageSchema,
    errors: [404, 422],
    creates: true,
  }),
  'chatMessages.pin': endpoint({
    id: 'chatMessages.pin',
    method: 'POST',
    path: '/chat-messages/{id}/pin',
    scope: 'write:chat_messages',
    section: OTHER,
    shown: false,
    summary: 'Pins a chat message.',
    responseKind: 'single',
    response: ChatMessagePinSchema,
    errors: [404],
  }),
  'chatMessages.unpin': endpoint({
    id: 'chatMessages.unpin',
    method: 'DELETE',
    path: '/chat-messages/{id}/pin',
    scope: 'write:chat_messages',
    section: OTHER,
    shown: false,
    summary: 'Unpins a chat message.',
    responseKind: 'empty',
    response: NoContentSchema,
    errors: [404],
  }),
  'feedback.send': endpoint({
    id: 'feedback.send',
    method: 'POST',
    path: '/feedback',
    scope: null,
    section: OTHER,
    shown: false,
    summary: 'Sends feedback about the API (any valid token).',
    body: FeedbackCreateSchema,
    responseKind: 'single',
    response: FeedbackSchema,
    errors: [422],
    creates: true,
  }),
};
