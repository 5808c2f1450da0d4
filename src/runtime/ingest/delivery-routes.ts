import type { FastifyInstance } from 'fastify';
import { IntrabotError } from '../../errors';
import type { Store } from '../../store/store';
import type { AuditTrail } from './audit-trail';
import type { DeliveryLog } from './delivery-log';
import type { InboxWorker } from './inbox-worker';

/** What the deliveries' admin routes use: the inbox, the history of handled deliveries and of audited runs, the worker to wake. */
export interface DeliveryRouteDeps {
  store: Pick<Store, 'inbox'>;
  deliveryLog: Pick<DeliveryLog, 'recent'>;
  auditTrail: Pick<AuditTrail, 'recent'>;
  worker: Pick<InboxWorker, 'wake'>;
}

/**
 * The admin routes of the deliveries, registered inside `adminRoutes` (behind its guard): `GET /_admin/deliveries`
 * lists them (`?state=live|dead|handled|audit`), `POST /_admin/deliveries/:id/replay` hands a dead or waiting
 * one to its bot again (`intrabot deliveries`).
 */
export async function deliveryRoutes(admin: FastifyInstance, deps: DeliveryRouteDeps): Promise<void> {
  const { store } = deps;
  admin.get<{ Querystring: { state?: 'live' | 'dead' | 'handled' | 'audit'; limit?: string } }>('/_admin/deliveries', async (request) => {
    const limit = Math.min(Math.max(Math.trunc(Number(request.query.limit ?? 100)) || 100, 1), 1_000);
    // handled: the recent history (src/runtime/ingest/delivery-log.ts); audit: what auditLog recorded; live and dead: the inbox itself
    if (request.query.state === 'handled') return { data: await deps.deliveryLog.recent(limit) };
    if (request.query.state === 'audit') return { data: await deps.auditTrail.recent(limit) };
    const state = request.query.state === 'dead' ? 'dead' : 'live';
    return { data: await store.inbox.list({ state, limit }) };
  });

  admin.post<{ Params: { id: string } }>('/_admin/deliveries/:id/replay', async (request) => {
    const ok = await store.inbox.requeue(request.params.id);
    if (!ok) throw new IntrabotError('not_found', `no dead or waiting delivery ${request.params.id}`);
    deps.worker.wake();
    return { ok: true };
  });
}
