import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkLocal } from '../../console/console-guard';
import { IntrabotError } from '../../errors';
import type { RuntimeConfig } from '../config/config';

/** One group of admin routes, registered behind the guard as its own plugin with its own deps (`mountRoutes` builds them). */
export type AdminGroup = (admin: FastifyInstance) => PromiseLike<unknown>;

/** What the admin scope uses: the settings its guard reads, and the groups of routes behind it. */
export interface AdminRouteDeps {
  config: Pick<RuntimeConfig, 'mode' | 'public_url' | 'admin_token'>;
  groups: readonly AdminGroup[];
}

/**
 * `/_admin/*`: loopback callers addressing a loopback name or `INTRABOT_PUBLIC_URL`'s host, changes from no
 * other web page's `Origin` (the console's rule, `checkLocal`); outside sandbox mode also
 * `Authorization: Bearer <INTRABOT_ADMIN_TOKEN>` (and off entirely until that token is configured). The
 * CLI's `run`, `deliveries`, `jobs`, `bots` and `rotate-secret` use the groups behind it: jobs
 * (`jobRoutes`), deliveries (`deliveryRoutes`), pauses (`pauseRoutes`), rotations (`rotationRoutes`).
 */
export async function adminRoutes(app: FastifyInstance, deps: AdminRouteDeps): Promise<void> {
  const { config } = deps;
  const guard = async (request: FastifyRequest): Promise<void> => {
    // in sandbox mode no token is asked: the Host and Origin rules are what keep a web page out
    // the public address only where a token is asked: in sandbox mode it would open the admin routes to whoever reaches it
    checkLocal(request, { publicUrl: config.mode === 'connected' ? config.public_url : undefined, surface: 'admin routes' });
    if (config.mode === 'sandbox') return;
    const token = config.admin_token;
    if (!token) throw new IntrabotError('forbidden', 'admin routes are off: set INTRABOT_ADMIN_TOKEN to use them');
    const given = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw new IntrabotError('unauthorized', 'missing or wrong admin token');
  };

  await app.register(async (admin) => {
    admin.addHook('onRequest', guard);
    for (const group of deps.groups) await group(admin);
  });
}
