import Fastify, { type FastifyInstance } from 'fastify';
import { AdjustableClock } from '../../src/clock';
import type { ConsoleDeps } from '../../src/console/console-deps';
import { registerConsole } from '../../src/console/console-plugin';
import type { DeliveryRow, JobRow } from '../../src/console/console-views';
import { auditView } from '../../src/console/views/audit-view';
import type { AuditRecord } from '../../src/bots/audit-log';

/** What a fake console's data sources hold; tests change it and see the console follow. */
export interface FakeState {
  deliveries: DeliveryRow[];
  jobs: JobRow[];
  replayed: string[];
  ran: string[];
  /** Outbox entries that exist, and what was done to them. */
  outbox: string[];
  outboxDone: string[];
  /** What the audit trail holds. */
  audit: AuditRecord[];
  /** A value a view carries by mistake: the console must never answer it. */
  leak: string;
}

export const SECRET = 'svc_fake-platform-token-123456';

export function deliveryRow(over: Partial<DeliveryRow> = {}): DeliveryRow {
  return {
    deliveryId: 'd-1',
    entryId: 'e-1',
    tenant: 'default',
    bot: 'ops',
    event: 'post.created',
    status: 'dead',
    detail: 'boom',
    attempts: 3,
    receivedAt: 1_000,
    at: 1_000,
    nextAttemptAt: null,
    durationMs: null,
    recovered: false,
    sends: [],
    ...over,
  };
}

/** Console deps over plain data, with the clock frozen unless told otherwise. */
export function fakeDeps(mode: 'sandbox' | 'connected', adminToken: string | undefined, clock = new AdjustableClock({ frozen: true, start: 1_000_000 })) {
  const state: FakeState = { deliveries: [deliveryRow()], jobs: [], replayed: [], ran: [], outbox: ['o-1'], outboxDone: [], audit: [], leak: '' };
  const deps: ConsoleDeps = {
    mode,
    adminToken,
    clock,
    bots: async () => ({ now: clock.now(), mode, tenants: [{ id: 'default', timezone: 'UTC' }], bots: [], failed: [], provisioning: null }),
    deliveries: async (query) => ({
      now: clock.now(),
      rows: state.deliveries.filter((r) => !query.bot || r.bot === query.bot).slice(0, query.limit),
      counts: { waiting: 0, 'in progress': 0, retrying: 0, dead: state.deliveries.length, handled: 0, ignored: 0 },
      perBot: {},
    }),
    replay: async (id) => {
      if (!state.deliveries.some((r) => r.entryId === id)) return false;
      state.replayed.push(id);
      return true;
    },
    outbox: async () => ({ now: clock.now(), rows: [], counts: { queued: 0, 'in flight': 0, retrying: 0, dead: 0 }, digests: [] }),
    retryOutbox: async (id) => state.outbox.includes(id) && state.outboxDone.push(`retry ${id}`) > 0,
    dropOutbox: async (id) => state.outbox.includes(id) && state.outboxDone.push(`drop ${id}`) > 0,
    rateBudget: async () => ({ now: clock.now(), bucketMs: 10_000, spanMs: 1_800_000, budgets: [] }),
    jobs: async () => ({ now: clock.now(), jobs: state.jobs }),
    runJob: async (tenant, bot, job) => {
      if (bot !== 'birthday' || job !== 'greet') return undefined;
      state.ran.push(`${tenant}/${bot}/${job}`);
      return { started: true, tenant, bot, job };
    },
    alertInputs: async () => ({ now: clock.now(), inputs: [], recent: [], messages: [], digests: [] }),
    audit: async (query) => auditView({ records: state.audit, tenants: ['default'] }, query, clock.now()),
    pauseBot: async () => ({ already: false }),
    resumeBot: async () => ({ resumed: true, released: 0, discarded: 0, messages: 0 }),
    secrets: async () => [SECRET, ...(adminToken ? [adminToken] : [])],
  };
  // a view that carries a secret by mistake (the scrubbing must catch it)
  const bots = deps.bots;
  deps.bots = async () => ({ ...(await bots()), failed: state.leak ? [{ dir: 'bots/x', name: 'x', error: state.leak }] : [] });
  return { deps, state, clock };
}

/** A Fastify app with the console alone on it. */
export async function consoleApp(deps: ConsoleDeps, streamIntervalMs = 50): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerConsole(app, deps, { streamIntervalMs });
  await app.ready();
  return app;
}
