import type { Clock } from '../../clock';
import type { Logger } from '../../log';
import type { Store } from '../../store/store';
import type { AcceptedDelivery } from '../../webhooks/receiver';
import { AUDIT_TRAIL_SPACE, AuditTrail } from './audit-trail';
import { DELIVERY_LOG_SPACE, DeliveryLog } from './delivery-log';
import type { DeliveryParts } from '../sending/delivery';
import type { DeploymentTable } from '../deployments';
import type { DeliveryOutcome } from './handle-delivery';
import { DeployedBots } from './deployed-bot';
import { HandlerRunner } from './handler-runner';
import { ConversationTimeouts } from './conversation-timeouts';
import { InboxWorker, type InboxLease, type InboxWorkerOptions } from './inbox-worker';
import { OTHER_LABEL, type RuntimeMetrics } from '../operations/metrics';
import type { InboxItem } from '../../store/inbox';
import { holdIfPaused } from '../../store/paused-bots';
import { holdIfNotLoaded } from './not-loaded-holds';
import { traceInboxAccept, traceInboxItem } from '../../tracing/trace-sites';
import type { TraceCarrier } from '../../tracing/trace-carrier';
import { tracingOn } from '../../tracing/tracing-switch';
import type { TraceContext } from '../../tracing/spans';

/** The receiving side past the 200: the inbox's worker, what runs the bots, and the history of what they did. */
export interface InboxParts {
  runner: HandlerRunner;
  /** Every deployment with its entry per trigger: deliver, run a job, time out a question, an alert input. */
  bots: DeployedBots;
  worker: InboxWorker;
  deliveryLog: DeliveryLog;
  /** What bots using the `auditLog` middleware did. */
  auditTrail: AuditTrail;
  /** The questions bots asked (`ctx.ask`): kept in the store, timed out on the clock. */
  conversations: ConversationTimeouts;
}

export interface InboxPipelineDeps {
  clock: Clock;
  store: Store;
  table: DeploymentTable;
  delivery: DeliveryParts;
  metrics: RuntimeMetrics;
  logger: Logger;
  handlerTimeoutMs: number;
  pollMs?: number | undefined;
  /** Bots that failed to load: their deliveries are held for a runtime that loads them. */
  held?: ReadonlySet<string>;
}

const NONE_HELD: ReadonlySet<string> = new Set();

/** A recorded delivery as the inbox hands it over: `handle -> count -> log` (see `handleRecorded`). */
export function buildInboxPipeline(deps: InboxPipelineDeps): InboxParts {
  const { clock, store, table, delivery } = deps;
  const auditTrail = new AuditTrail(store.kv(AUDIT_TRAIL_SPACE));
  const conversations = new ConversationTimeouts({ clock, store, table, logger: deps.logger });
  const runner = new HandlerRunner({
    table,
    clock,
    store,
    sink: delivery.outbox,
    logger: deps.logger,
    timeoutMs: deps.handlerTimeoutMs,
    files: delivery.files,
    audit: auditTrail,
    conversations,
    alertState: delivery.alertState,
  });
  const deliveryLog = new DeliveryLog(store.kv(DELIVERY_LOG_SPACE), clock);
  const bots = new DeployedBots({ runner, loopGuard: delivery.loopGuard, table, outbox: delivery.outbox });
  const recorded: RecordedDeps = { bots, metrics: deps.metrics, deliveryLog, logger: deps.logger };
  const worker = new InboxWorker(
    new RecordedInbox({ ...recorded, inbox: store.inbox, clock, held: deps.held ?? NONE_HELD, paused: delivery.paused, pollMs: deps.pollMs }),
  );
  return { runner, bots, worker, deliveryLog, auditTrail, conversations };
}

/**
 * The delivery lag of a first handling: from the acceptance (the entry's `enqueuedAt`, on the same clock)
 * to now. A retry's start is left out: its wait is the backoff the worker chose, not lag.
 */
function observeLag(metrics: RuntimeMetrics, lease: { attempts: number; enqueuedAt: number; payload: { bot: string } }, nowMs: number): void {
  if (lease.attempts !== 1) return;
  metrics.deliveryLag.observe({ bot: lease.payload.bot }, Math.max(0, nowMs - lease.enqueuedAt) / 1000);
}

interface RecordedDeps {
  bots: Pick<DeployedBots, 'deliver'>;
  metrics: RuntimeMetrics;
  deliveryLog: DeliveryLog;
  logger: Logger;
}

interface RecordedInboxDeps extends RecordedDeps {
  inbox: Store['inbox'];
  clock: Clock;
  /** Bots that failed to load: their deliveries wait for a runtime that loads them. */
  held: ReadonlySet<string>;
  paused: DeliveryParts['paused'];
  pollMs?: number | undefined;
}

/**
 * What the inbox worker is given, as named steps rather than callbacks: `hold` (a bot not loaded or
 * paused keeps its delivery), `starting` (the delivery lag), `handle` (the item through its bot, traced,
 * timed, counted and written to the delivery history).
 */
class RecordedInbox implements InboxWorkerOptions {
  readonly inbox: Store['inbox'];
  readonly clock: Clock;
  readonly logger: Logger;
  readonly pollMs?: number;

  constructor(private readonly deps: RecordedInboxDeps) {
    this.inbox = deps.inbox;
    this.clock = deps.clock;
    this.logger = deps.logger;
    if (deps.pollMs) this.pollMs = deps.pollMs;
  }

  async hold(lease: InboxLease): Promise<boolean> {
    const now = this.clock.now();
    return (await holdIfNotLoaded(this.deps.held, this.inbox, lease, now)) || holdIfPaused(this.deps.paused, this.inbox, lease, lease.payload, now);
  }

  starting(lease: InboxLease): void {
    observeLag(this.deps.metrics, lease, this.clock.now());
  }

  handle(item: InboxItem): Promise<DeliveryOutcome> {
    if (!tracingOn()) return handleRecorded(this.deps, item, undefined);
    return traceInboxItem(item, (trace) => handleRecorded(this.deps, item, trace));
  }
}

/** One inbox item through its bot, timed and counted, and written to the delivery history (best effort: a history for people). */
async function handleRecorded(deps: RecordedDeps, item: InboxItem, trace: TraceContext | undefined): Promise<DeliveryOutcome> {
  const stop = deps.metrics.handlerDuration.startTimer({ bot: item.bot });
  const started = performance.now();
  try {
    const outcome = await deps.bots.deliver(item, trace);
    deps.metrics.handlerRuns.inc({ bot: item.bot, outcome: outcome.status });
    await deps.deliveryLog
      .record(item, outcome, performance.now() - started)
      .catch((err: unknown) => deps.logger.warn({ err }, 'delivery log: store write failed'));
    return outcome;
  } catch (error) {
    deps.metrics.handlerRuns.inc({ bot: item.bot, outcome: 'failed' });
    throw error;
  } finally {
    stop();
  }
}

/** What recording a delivery uses: the inbox, and the counter of what was received. */
export interface AcceptDeps {
  store: Pick<Store, 'inbox'>;
  metrics: Pick<RuntimeMetrics, 'deliveriesReceived'>;
}

/** A delivery the receiver checked (or the `receive` door was given): durably into the inbox, counted. Resolves once it is safe to acknowledge. */
export async function acceptDelivery(
  deps: AcceptDeps,
  delivery: Pick<AcceptedDelivery, 'tenant' | 'bot' | 'deliveryId' | 'envelope' | 'event'> &
    Partial<Pick<AcceptedDelivery, 'dedupeKey' | 'envelopeJson' | 'trace'>>,
): Promise<{ duplicate: boolean }> {
  const result = tracingOn()
    ? await traceInboxAccept(delivery, (trace) => recordInInbox(deps, delivery, trace))
    : await recordInInbox(deps, delivery, undefined);
  const labels = { tenant: delivery.tenant, bot: delivery.bot, event: delivery.event || OTHER_LABEL, duplicate: String(!result.accepted) };
  deps.metrics.deliveriesReceived.inc(labels);
  return { duplicate: !result.accepted };
}

/** The delivery written to the inbox with the trace context to continue (tracing on). */
function recordInInbox(deps: AcceptDeps, delivery: Parameters<typeof acceptDelivery>[1], trace: TraceCarrier | undefined) {
  return deps.store.inbox.accept({
    tenant: delivery.tenant,
    bot: delivery.bot,
    deliveryId: delivery.deliveryId,
    envelope: delivery.envelope,
    event: delivery.event,
    ...(delivery.dedupeKey ? { dedupeKey: delivery.dedupeKey } : {}),
    ...(delivery.envelopeJson ? { envelopeJson: delivery.envelopeJson } : {}),
    ...(trace ? { trace } : {}),
  });
}
