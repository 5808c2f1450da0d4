import { endpointList } from '../api/schemas/endpoints';
import type { ApiRouter } from './http/api-router';
import { notImplemented } from './http/sandbox-error';

/**
 * Honesty about fidelity: every endpoint of the spec that no module implements answers 501 saying
 * so (never a fake 200), and `/_sandbox/coverage` lists each as implemented, partial (saying what is
 * missing) or not implemented.
 * The list of endpoints is the catalog in `src/api/schemas`.
 */
export function registerNotImplemented(router: ApiRouter): void {
  for (const { method, path } of catalogEndpoints()) {
    if (router.has(method, path)) continue;
    router.placeholder(method, path, () => {
      throw notImplemented(`${method} ${path}`);
    });
  }
}

/**
 * Endpoints the sandbox serves with something missing compared to the platform, and what. Kept by
 * hand, next to the routes' own comments: a gap found is a line added here.
 */
const PARTIAL: Record<string, string> = {
  'GET /stats/users': 'computed from the sandbox state at request time; activity counts are plausible, not recorded',
  'GET /stats/engagement': 'the sandbox keeps no activity history: past periods are plausible, deterministic numbers',
  'GET /stats/adoption': 'computed from the sandbox state; activity is plausible, not recorded',
  'GET /stats/content': 'reactions are always 0 (nothing stores reactions)',
  'POST /incoming/{token}': 'media URLs on loopback addresses are downloaded too (the platform needs public URLs)',
  'POST /webhooks': 'plain http is accepted for loopback URLs (the platform requires https)',
};

export function coverageReport(router: ApiRouter): unknown {
  const implemented = new Set(router.registered.map((r) => `${r.method} ${r.path}`));
  const all = catalogEndpoints();
  return {
    data: all.map(({ method, path }) => {
      const key = `${method} ${path}`;
      if (!implemented.has(key)) return { method, path, status: 'not_implemented' };
      const missing = PARTIAL[key];
      return missing ? { method, path, status: 'partial', missing } : { method, path, status: 'implemented' };
    }),
  };
}

function catalogEndpoints(): { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string }[] {
  return endpointList.map((e) => ({ method: e.method, path: e.path }));
}
