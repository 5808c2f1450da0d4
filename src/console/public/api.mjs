// The console's JSON routes, relative to the page (so it works under a host app's prefix too). Changes carry X-Intrabot-Console (the server refuses them without it:
// a form or script on another site cannot send it), and the session cookie goes along by itself.

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message ?? `the runtime answered ${status}`);
    this.status = status;
    this.code = body?.error;
  }
}

async function call(method, path, body) {
  const headers = { accept: 'application/json' };
  if (method !== 'GET') headers['x-intrabot-console'] = '1';
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, credentials: 'same-origin', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new ApiError(res.status, parsed);
  return parsed;
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
