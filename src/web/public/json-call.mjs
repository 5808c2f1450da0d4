// A JSON request from a page to its own server, relative to the page: the answer parsed, a refusal
// thrown as an ApiError carrying the server's message and error code. The console and the playground
// call their routes through it.

export class ApiError extends Error {
  constructor(status, body, server = 'the server') {
    super(body?.message ?? `${server} answered ${status}`);
    this.status = status;
    this.code = body?.error;
  }
}

export async function jsonCall(method, path, body, extraHeaders = {}, server = 'the server') {
  const headers = { accept: 'application/json', ...extraHeaders };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, credentials: 'same-origin', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new ApiError(res.status, parsed, server);
  return parsed;
}
