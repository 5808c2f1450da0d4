import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The runtime's Prometheus metrics (`GET /metrics`), on a registry of its own (no global state: two
 * runtimes in one process, as in tests, keep separate counts).
 */
export class RuntimeMetrics {
  readonly registry = new Registry();
  readonly deliveriesReceived = new Counter({
    name: 'intrabot_deliveries_received_total',
    help: 'Signed deliveries accepted into the inbox',
    labelNames: ['tenant', 'bot', 'event', 'duplicate'],
    registers: [this.registry],
  });
  readonly deliveriesRejected = new Counter({
    name: 'intrabot_deliveries_rejected_total',
    help: 'Deliveries refused by the receiver, by reason',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  readonly handlerRuns = new Counter({
    name: 'intrabot_handler_runs_total',
    help: 'Handler runs by outcome (handled, ignored, failed)',
    labelNames: ['bot', 'outcome'],
    registers: [this.registry],
  });
  readonly handlerDuration = new Histogram({
    name: 'intrabot_handler_duration_seconds',
    help: 'How long handler runs take',
    labelNames: ['bot'],
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30],
    registers: [this.registry],
  });
  readonly jobRuns = new Counter({
    name: 'intrabot_job_runs_total',
    help: 'Job runs by outcome',
    labelNames: ['bot', 'job', 'outcome'],
    registers: [this.registry],
  });
  readonly outboxDepth = new Gauge({ name: 'intrabot_outbox_depth', help: 'Messages queued in the outbox (pending or in flight)', registers: [this.registry] });
  readonly outboxDead = new Gauge({ name: 'intrabot_outbox_dead_letters', help: 'Messages in the outbox dead-letter list', registers: [this.registry] });
  readonly inboxDead = new Gauge({ name: 'intrabot_inbox_dead_letters', help: 'Deliveries in the inbox dead-letter list', registers: [this.registry] });
  readonly outboxEvents = new Counter({
    name: 'intrabot_outbox_events_total',
    help: 'Outbox sends, retries and dead letters per kind',
    labelNames: ['kind', 'event'],
    registers: [this.registry],
  });
  readonly rateBudgetRemaining = new Gauge({
    name: 'intrabot_rate_budget_remaining',
    help: "Requests left in the token's current window, as the platform last said",
    labelNames: ['tenant'],
    registers: [this.registry],
  });
  readonly proxyCalls = new Counter({
    name: 'intrabot_proxy_calls_total',
    help: 'Proxy calls by key and status class',
    labelNames: ['key', 'status'],
    registers: [this.registry],
  });

  constructor(options: { defaults?: boolean } = {}) {
    if (options.defaults !== false) collectDefaultMetrics({ register: this.registry, prefix: 'intrabot_process_' });
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
}
