import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import type { BodyInput, Id } from './types';

const e = {
  notify: endpoints['notifications.send'],
  dm: endpoints['directMessages.send'],
  feedback: endpoints['feedback.send'],
};

/** GET /token: name, scopes and expiry of the calling token. */
export function tokenResource(caller: Caller) {
  return { get: () => caller.call(endpoints['token.get']) };
}

/** POST /notifications: an activity-feed notification; answers how many employees matched. */
export function notificationsResource(caller: Caller) {
  return { send: (body: BodyInput<typeof e.notify>) => caller.call(e.notify, { body }) };
}

/** Pinning chat messages. */
export function chatMessagesResource(caller: Caller) {
  return {
    pin: (id: Id) => caller.call(endpoints['chatMessages.pin'], { params: { id } }),
    unpin: (id: Id) => caller.call(endpoints['chatMessages.unpin'], { params: { id } }),
  };
}

/**
 * Direct messages from a bot user to one user.
 *
 * @example
 * await api.directMessages.send(42, { bot_user_id: bot.id, text: 'Happy birthday!' });
 */
export function directMessagesResource(caller: Caller) {
  return { send: (userId: Id, body: BodyInput<typeof e.dm>) => caller.call(e.dm, { params: { id: userId }, body }) };
}

/** POST /feedback. */
export function feedbackResource(caller: Caller) {
  return { send: (body: BodyInput<typeof e.feedback>) => caller.call(e.feedback, { body }) };
}
