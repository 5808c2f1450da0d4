/**
 * Pagination links point at the platform (spec: Pagination: `links` holds absolute URLs); a proxy
 * caller must follow them through the proxy, so each link under the platform's API root is moved
 * under the proxy's. Pure.
 *
 * @example
 * rewriteLink('https://acme.example/api/open/v1/walls?page=2', 'https://acme.example/api/open/v1', 'http://127.0.0.1:3000/t/acme/api/open/v1')
 * // 'http://127.0.0.1:3000/t/acme/api/open/v1/walls?page=2'
 */
export function rewriteLink(link: string, platformRoot: string, proxyRoot: string): string {
  const from = platformRoot.replace(/\/+$/, '');
  const to = proxyRoot.replace(/\/+$/, '');
  if (link === from) return to;
  for (const boundary of ['/', '?', '#']) {
    if (link.startsWith(from + boundary)) return to + link.slice(from.length);
  }
  return link;
}

/**
 * The body with every string of its top-level `links` object rewritten; any other body, or a
 * `links` that is not an object, comes back as it was. Never mutates `body`.
 */
export function rewriteLinks(body: unknown, platformRoot: string, proxyRoot: string): unknown {
  if (!isRecord(body) || !isRecord(body.links)) return body;
  const links: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body.links)) {
    links[name] = typeof value === 'string' ? rewriteLink(value, platformRoot, proxyRoot) : value;
  }
  return { ...body, links };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
