/**
 * The headers a proxy caller sees: the platform's, minus hop-by-hop headers (RFC 9110 section 7.6.1)
 * and those the proxy recomputes, with the rate-limit headers showing the caller's budget. Pure.
 */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  // the proxy sends the body it re-serialised: length and encoding are its own
  'content-length',
  'content-encoding',
  'date',
]);

export function passThroughHeaders(headers: Record<string, string>): Record<string, string> {
  const named = new Set((headers.connection ?? '').split(',').map((h) => h.trim().toLowerCase()));
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!DROPPED.has(lower) && !named.has(lower)) kept[lower] = value;
  }
  return kept;
}

/** The proxy's share while the outbox is busy: its limit and what is left of it. */
export interface ShareView {
  limit: number;
  remaining: number | undefined;
}

/**
 * The rate-limit headers reflecting the shared budget. The platform's own headers already count
 * the bots' requests (one token, one budget); while the bots have work queued the proxy's share is
 * the smaller budget, so the limit becomes the share and the remaining count the lesser of the two.
 *
 * @example
 * budgetHeaders({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '40' }, { limit: 30, remaining: 5 })
 * // { 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '5' }
 */
export function budgetHeaders(platform: Record<string, string>, share: ShareView | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
    const value = platform[name];
    if (value !== undefined) headers[name] = value;
  }
  if (!share) return headers;
  const platformRemaining = Number(platform['x-ratelimit-remaining']);
  const candidates = [share.remaining, Number.isFinite(platformRemaining) ? platformRemaining : undefined].filter((n): n is number => n !== undefined);
  headers['x-ratelimit-limit'] = String(share.limit);
  if (candidates.length > 0) headers['x-ratelimit-remaining'] = String(Math.max(0, Math.min(...candidates)));
  return headers;
}
