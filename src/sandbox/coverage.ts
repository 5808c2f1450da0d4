import { endpointList } from '../api/schemas/endpoints';
import type { ApiRouter } from './http/api-router';
import { notImplemented } from './http/sandbox-error';

/**
 * Honesty about fidelity: every endpoint of the spec that no module implements answers 501 saying
 * so (never a fake 200), and `/_sandbox/coverage` lists what is implemented.
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

export function coverageReport(router: ApiRouter): unknown {
  const implemented = new Set(router.registered.map((r) => `${r.method} ${r.path}`));
  const all = catalogEndpoints();
  return {
    data: all.map(({ method, path }) => ({
      method,
      path,
      status: implemented.has(`${method} ${path}`) ? 'implemented' : 'not_implemented',
    })),
  };
}

function catalogEndpoints(): { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string }[] {
  return endpointList.map((e) => ({ method: e.method, path: e.path }));
}
