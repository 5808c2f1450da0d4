// The sandbox's control API, as the playground calls it: JSON both ways, same origin (the sandbox takes
// changes from its own pages only). Every action is the one a test would make, so bots get real deliveries.
import { jsonCall } from './json-call.mjs';

export { ApiError } from './json-call.mjs';

const call = (method, path, body) => jsonCall(method, path, body, {}, 'the sandbox');

export const api = {
  directory: () => call('GET', '/_sandbox/playground'),
  wall: (id) => call('GET', `/_sandbox/playground/walls/${encodeURIComponent(id)}`),
  chatMessages: (chatId) => call('GET', `/_sandbox/messages?kind=chat&chat_id=${encodeURIComponent(chatId)}&limit=100`),
  personalMessages: (userId) => call('GET', `/_sandbox/messages?user_id=${encodeURIComponent(userId)}&limit=100`),
  post: (userId, wallId, body) => call('POST', `/_sandbox/users/${encodeURIComponent(userId)}/posts`, { wall_id: wallId, body }),
  comment: (userId, postId, body) => call('POST', `/_sandbox/users/${encodeURIComponent(userId)}/comments`, { post_id: postId, body }),
  moveClock: (change) => call('POST', '/_sandbox/clock', change),
  intranet: (userId) => call('GET', `/_sandbox/playground/intranet?user_id=${encodeURIComponent(userId)}`),
  confirm: (announcementId, userId) => call('POST', `/_sandbox/announcements/${encodeURIComponent(announcementId)}/confirm`, { user_id: userId }),
  respond: (formId, userId, answers) => call('POST', `/_sandbox/forms/${encodeURIComponent(formId)}/responses`, { user_id: userId, answers }),
  register: (userId) => call('POST', `/_sandbox/users/${encodeURIComponent(userId)}/register`, {}),
  sendAlert: (id) => call('POST', '/_sandbox/playground/send-alert', { id }),
};
