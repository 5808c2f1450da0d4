import type { FastifyInstance } from 'fastify';
import type { BotPauses } from './bot-pauses';

/** What the pause routes use: the bots' pauses alone. */
export interface PauseRouteDeps {
  pauses: Pick<BotPauses, 'list' | 'locate' | 'pause' | 'resume'>;
}

/**
 * The admin routes of pausing a bot (src/runtime/pause/bot-pauses.ts), registered inside `adminRoutes` (behind
 * its guard): `GET /_admin/bots/paused`, `POST /_admin/bots/:bot/pause` and `/resume` (`intrabot bots`).
 * `?tenant=` may be left out when the bot runs on one tenant.
 */
export async function pauseRoutes(admin: FastifyInstance, deps: PauseRouteDeps): Promise<void> {
  const { pauses } = deps;
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
}
