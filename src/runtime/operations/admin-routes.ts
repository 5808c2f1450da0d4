import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkLocal } from '../../console/console-guard';
import { IntrabotError } from '../../errors';
import type { RuntimeParts } from '../runtime-parts';
import { rotationRoutes } from '../rotation/rotation-routes';

/**
 * `/_admin/*`: loopback callers addressing a loopback name or `INTRABOT_PUBLIC_URL`'s host, changes from no
 * other web page's `Origin` (the console's rule, `checkLocal`); outside sandbox mode also
 * `Authorization: Bearer <INTRABOT_ADMIN_TOKEN>` (and off entirely until that token is configured). The
 * CLI's `run`, `deliveries`, `jobs` and `bots` use them.
 */
export async function adminRoutes(app: FastifyInstance, parts: RuntimeParts): Promise<void> {
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

  const { scheduler, store, inbox, pauses } = parts;
  const config = parts.config;
  await app.register(async (admin) => {
    admin.addHook('onRequest', guard);

    admin.post<{ Params: { tenant: string; bot: string; job: string } }>('/_admin/jobs/:tenant/:bot/:job/run', async (request) => {
      const { tenant, bot, job } = request.params;
      return { ok: true, run: await scheduler.runNow(tenant, bot, job) };
    });

    admin.get('/_admin/jobs', async () => ({ data: await scheduler.listJobs() }));

    admin.get<{ Querystring: { state?: 'live' | 'dead' | 'handled' | 'audit'; limit?: string } }>('/_admin/deliveries', async (request) => {
      const limit = Math.min(Math.max(Math.trunc(Number(request.query.limit ?? 100)) || 100, 1), 1_000);
      // handled: the recent history (src/runtime/delivery-log.ts); audit: what auditLog recorded; live and dead: the inbox itself
      if (request.query.state === 'handled') return { data: await inbox.deliveryLog.recent(limit) };
      if (request.query.state === 'audit') return { data: await inbox.auditTrail.recent(limit) };
      const state = request.query.state === 'dead' ? 'dead' : 'live';
      return { data: await store.inbox.list({ state, limit }) };
    });

    // pausing a bot (src/runtime/bot-pauses.ts): `?tenant=` may be left out when the bot runs on one tenant
    type BotRequest = { Params: { bot: string }; Querystring: { tenant?: string } };
    admin.get('/_admin/bots/paused', async () => ({ data: await pauses.list() }));
    admin.post<BotRequest>('/_admin/bots/:bot/pause', async (request) => {
      const at = pauses.locate(request.params.bot, request.query.tenant);
      return { ok: true, ...at, ...(await pauses.pause(at, request.body, 'admin')) };
    });
    admin.post<BotRequest>('/_admin/bots/:bot/resume', async (request) => {
      const at = pauses.locate(request.params.bot, request.query.tenant);
      return { ok: true, ...at, ...(await pauses.resume(at, request.body, 'admin')) };
    });

    admin.post<{ Params: { id: string } }>('/_admin/deliveries/:id/replay', async (request) => {
      const ok = await store.inbox.requeue(request.params.id);
      if (!ok) throw new IntrabotError('not_found', `no dead or waiting delivery ${request.params.id}`);
      inbox.worker.wake();
      return { ok: true };
    });

    await rotationRoutes(admin, parts);
  });
}
