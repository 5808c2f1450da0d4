import type { FastifyInstance } from 'fastify';
import type { Scheduler } from '../../scheduler/scheduler';

/** What the jobs' admin routes use: the scheduler alone. */
export interface JobRouteDeps {
  scheduler: Pick<Scheduler, 'runNow' | 'listJobs'>;
}

/**
 * The admin routes of the scheduled jobs, registered inside `adminRoutes` (behind its guard):
 * `POST /_admin/jobs/:tenant/:bot/:job/run` runs one now (`intrabot run`), `GET /_admin/jobs` lists them with
 * their next slot and last runs (`intrabot jobs`).
 */
export async function jobRoutes(admin: FastifyInstance, deps: JobRouteDeps): Promise<void> {
  const { scheduler } = deps;
  admin.post<{ Params: { tenant: string; bot: string; job: string } }>('/_admin/jobs/:tenant/:bot/:job/run', async (request) => {
    const { tenant, bot, job } = request.params;
    return { ok: true, run: await scheduler.runNow(tenant, bot, job) };
  });

  admin.get('/_admin/jobs', async () => ({ data: await scheduler.listJobs() }));
}
