import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { activeLocales } from '../../seed/directory-locales';

/** GET /token (any valid token) and GET /locales (read:locales); spec: Other endpoints that exist. */
export function registerTokenAndLocaleRoutes(router: ApiRouter, ctx: SandboxContext): void {
  router.route('GET', '/token', null, (_request, auth) => ({
    data: { name: auth.token.name, scopes: auth.token.scopes, expires_at: ctx.isoOrNull(auth.token.expires_at) },
  }));
  router.route('GET', '/locales', 'read:locales', () => ({ data: activeLocales(ctx) }));
}
