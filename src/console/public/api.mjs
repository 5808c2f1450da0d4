// The console's JSON routes, relative to the page (so it works under a host app's prefix too). Changes carry X-Intrabot-Console (the server refuses them without it:
// a form or script on another site cannot send it), and the session cookie goes along by itself.
import { jsonCall } from './json-call.mjs';

export { ApiError } from './json-call.mjs';

function call(method, path, body) {
  return jsonCall(method, path, body, method === 'GET' ? {} : { 'x-intrabot-console': '1' }, 'the runtime');
}

export const api = {
  session: () => call('GET', 'api/session'),
  signIn: (token) => call('POST', 'api/session', { token }),
  signOut: () => call('DELETE', 'api/session'),
  replay: (entryId) => call('POST', `api/deliveries/${encodeURIComponent(entryId)}/replay`),
  retryOutbox: (id) => call('POST', `api/outbox/${encodeURIComponent(id)}/retry`),
  dropOutbox: (id) => call('POST', `api/outbox/${encodeURIComponent(id)}/drop`),
  audit: (query) => call('GET', `api/audit?${new URLSearchParams(query)}`),
  pauseBot: (tenant, bot, reason) => call('POST', `api/bots/${[tenant, bot].map(encodeURIComponent).join('/')}/pause`, reason ? { reason } : {}),
  resumeBot: (tenant, bot, discard) => call('POST', `api/bots/${[tenant, bot].map(encodeURIComponent).join('/')}/resume`, discard ? { discard: true } : {}),
  runJob: (tenant, bot, job) => call('POST', `api/jobs/${[tenant, bot, job].map(encodeURIComponent).join('/')}/run`),
};
