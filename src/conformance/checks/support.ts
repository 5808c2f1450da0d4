import type { RawResponse } from '../../api/client';
import type { IntrabotApi } from '../../api/create-api-client';
import { ApiForbiddenError } from '../../api/errors';
import { skip, type ConformanceContext } from '../check';

/**
 * A request whose answer is returned whatever its status, headers and raw body included; also for
 * bodies the typed client would refuse to send.
 */
export function rawRequest(
  api: IntrabotApi,
  method: string,
  path: string,
  input: { query?: Record<string, unknown>; body?: unknown } = {},
): Promise<RawResponse> {
  return api.request({ method, path, ...input, httpErrors: 'return', retry: 'never' });
}

export function rawGet(api: IntrabotApi, path: string, query?: Record<string, unknown>): Promise<RawResponse> {
  return rawRequest(api, 'GET', path, { query });
}

/** An id no host hands out (ids are integers; far above any real table). */
export const UNKNOWN_ID = 987_654_321;

/** `promise`, or a skip naming `what` when the token lacks the scope or the feature is off (403). */
export async function orSkipWhenForbidden<T>(promise: Promise<T>, what: string): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof ApiForbiddenError) skip(`${what}: the host answered 403 (${error.missingScope ?? 'scope or feature'})`);
    throw error;
  }
}

/** "Now" on the host: the sandbox clock when there is one, else the client's clock. */
export async function hostNow(ctx: ConformanceContext): Promise<number> {
  return ctx.sandbox ? ctx.sandbox.now() : ctx.clock.now();
}

/** `YYYY-MM-DD` of an epoch in UTC. */
export function isoDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** A datetime with an offset (`Z`) for request bodies. */
export function isoDateTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The first item of a page, or a skip saying the host has none to check with. */
export function firstOrSkip<T>(items: readonly T[], what: string): T {
  const first = items[0];
  if (first === undefined) skip(`the host has no ${what} to check with`);
  return first;
}

/** The path of an absolute link relative to the client's API root, query kept. */
export function linkPath(api: IntrabotApi, link: string): string {
  const url = new URL(link);
  const root = api.root.pathname;
  const path = url.pathname.startsWith(root) ? url.pathname.slice(root.length) : url.pathname;
  return `${path}${url.search}`;
}

/** What every writing check puts in the content it creates, so a person can tell it apart. */
export const MARK = 'intrabot conformance check (safe to delete)';

/** The id of the first listed user, or a skip when the token may not read users. */
export async function firstUserId(api: IntrabotApi): Promise<number> {
  const users = await orSkipWhenForbidden(api.users.list({ per_page: 1 }), 'GET /users');
  return firstOrSkip(users.data, 'users').id;
}
