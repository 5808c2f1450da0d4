import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { BoundedCounter, BoundedGauge, BoundedHistogram, boundBy, type Bound, type KnownLabels, type LabelName } from './metric-labels';

export { knownLabels, OTHER_LABEL, type KnownLabels } from './metric-labels';

/** Where a queue wait ends: from a millisecond (an idle runtime) to the platform's 10-minute retry. */
const LAG_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 600];

/** A wait for rate budget: none at all is the common case, a whole 60 s window the worst the pacer asks. */
const RATE_WAIT_BUCKETS_S = [0, 0.1, 0.5, 1, 2, 5, 10, 20, 30, 60];

/**
 * Names replaced in this release, still exported beside the new ones until the next (docs/operations.md,
 * "Deprecated metric names"). `intrabot_process_` was the default metrics' prefix, which doubled
 * `process_` (`intrabot_process_process_cpu_user_seconds_total`) and hid `nodejs_` under it.
 */
export const DEPRECATED_DEFAULT_METRICS_PREFIX = 'intrabot_process_';

/**
 * The runtime's Prometheus metrics (`GET /metrics`), on a registry of its own (no global state: two
 * runtimes in one process, as in tests, keep separate counts). Every name starts `intrabot_`, counts
 * end `_total`, times are in seconds; every label takes values from a bounded set (`metric-labels.ts`).
 */
export class RuntimeMetrics {
  readonly registry = new Registry();
  readonly deliveriesReceived: BoundedCounter<'tenant' | 'bot' | 'event' | 'duplicate'>;
  readonly deliveriesRejected: BoundedCounter<'reason'>;
  readonly handlerRuns: BoundedCounter<'bot' | 'outcome'>;
  readonly handlerDuration: BoundedHistogram<'bot'>;
  /** From a delivery's acceptance into the inbox to its first handling's start. */
  readonly deliveryLag: BoundedHistogram<'bot'>;
  readonly jobRuns: BoundedCounter<'bot' | 'job' | 'outcome'>;
  readonly inboxEntries: BoundedGauge<'state'>;
  readonly outboxEntries: BoundedGauge<'state'>;
  readonly outboxDead = this.gauge('intrabot_outbox_dead_letters', 'Messages in the outbox dead-letter list');
  readonly inboxDead = this.gauge('intrabot_inbox_dead_letters', 'Deliveries in the inbox dead-letter list');
  /** Deprecated for `intrabot_outbox_entries{state}` (pending plus leased). */
  readonly outboxDepthDeprecated = this.gauge('intrabot_outbox_depth', 'Deprecated: the sum of intrabot_outbox_entries{state=~"pending|leased"}');
  readonly botPaused: BoundedGauge<'tenant' | 'bot'>;
  readonly rateBudgetRemaining: BoundedGauge<'tenant'>;
  /** Seconds a request waited for rate budget before it was sent (0 for most). */
  readonly rateBudgetWait: BoundedHistogram<'tenant' | 'budget'>;
  /** Requests the runtime's own clients sent to the platform, by answer (proxied calls are `proxyCalls`). */
  readonly platformRequests: BoundedCounter<'tenant' | 'method' | 'status'>;
  /** `key` is a configured key's name (or `none`), `status` a class (`2xx`). */
  readonly proxyCalls: BoundedCounter<'key' | 'status'>;

  private readonly bound: Bound;

  constructor(options: { known: KnownLabels; defaults?: boolean }) {
    this.bound = boundBy(options.known);
    this.deliveriesReceived = this.counter('intrabot_deliveries_received_total', 'Signed deliveries accepted into the inbox', [
      'tenant',
      'bot',
      'event',
      'duplicate',
    ]);
    this.deliveriesRejected = this.counter('intrabot_deliveries_rejected_total', 'Deliveries refused by the receiver, by reason', ['reason']);
    this.handlerRuns = this.counter('intrabot_handler_runs_total', 'Handler runs by outcome (handled, ignored, failed)', ['bot', 'outcome']);
    this.handlerDuration = this.histogram('intrabot_handler_duration_seconds', 'How long handler runs take', ['bot'], [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30]);
    this.deliveryLag = this.histogram(
      'intrabot_delivery_lag_seconds',
      'From a delivery accepted into the inbox to the start of its first handling',
      ['bot'],
      LAG_BUCKETS_S,
    );
    this.jobRuns = this.counter('intrabot_job_runs_total', 'Scheduled and on-demand job runs by outcome (ok, failed)', ['bot', 'job', 'outcome']);
    this.inboxEntries = this.labelledGauge('intrabot_inbox_entries', 'Deliveries in the inbox by state (pending, leased: being handled, dead)', ['state']);
    this.outboxEntries = this.labelledGauge('intrabot_outbox_entries', 'Messages in the outbox by state (pending, leased: being sent, dead)', ['state']);
    this.botPaused = this.labelledGauge('intrabot_bot_paused', 'Whether a deployed bot is paused (1) or runs (0)', ['tenant', 'bot']);
    this.rateBudgetRemaining = this.labelledGauge('intrabot_rate_budget_remaining', "Requests left in the token's current window, as the platform last said", [
      'tenant',
    ]);
    this.rateBudgetWait = this.histogram(
      'intrabot_rate_budget_wait_seconds',
      'How long a platform request waited for rate budget (a token or an incoming webhook) before it was sent',
      ['tenant', 'budget'],
      RATE_WAIT_BUCKETS_S,
    );
    this.platformRequests = this.counter('intrabot_platform_requests_total', 'Requests sent to the platform by method and answer (status class, 429 apart)', [
      'tenant',
      'method',
      'status',
    ]);
    this.proxyCalls = this.counter('intrabot_proxy_calls_total', 'Proxy calls by key and status class', ['key', 'status']);
    if (options.defaults !== false) {
      collectDefaultMetrics({ register: this.registry, prefix: 'intrabot_' });
      collectDefaultMetrics({ register: this.registry, prefix: DEPRECATED_DEFAULT_METRICS_PREFIX });
    }
  }

  /** Gauges read at scrape time. */
  onCollect(collect: () => Promise<void>): void {
    this.collectors.push(collect);
  }

  async render(): Promise<string> {
    await Promise.allSettled(this.collectors.map((c) => c()));
    return this.registry.metrics();
  }

  private readonly collectors: (() => Promise<void>)[] = [];

  private counter<T extends LabelName>(name: string, help: string, labelNames: T[]): BoundedCounter<T> {
    return new BoundedCounter(new Counter({ name, help, labelNames, registers: [this.registry] }), this.bound);
  }

  private labelledGauge<T extends LabelName>(name: string, help: string, labelNames: T[]): BoundedGauge<T> {
    return new BoundedGauge(new Gauge({ name, help, labelNames, registers: [this.registry] }), this.bound);
  }

  private gauge(name: string, help: string): Gauge {
    return new Gauge({ name, help, registers: [this.registry] });
  }

  private histogram<T extends LabelName>(name: string, help: string, labelNames: T[], buckets: number[]): BoundedHistogram<T> {
    return new BoundedHistogram(new Histogram({ name, help, labelNames, buckets, registers: [this.registry] }), this.bound);
  }
}
