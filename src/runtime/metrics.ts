import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type LabelValues } from 'prom-client';
import { EVENT_NAMES, REPORT_NAMES } from '../webhooks/events';

/** The value a label takes for anything outside its known set. */
export const OTHER_LABEL = 'other';

/**
 * The values the labels fed by callers may take: the configured tenants, the loaded bots, the jobs
 * their manifests schedule. Anything else counts as `other`, so a caller cannot grow the number of
 * series (each one is memory in every scrape, here and in Prometheus) by inventing names.
 */
export interface KnownLabels {
  tenants: readonly string[];
  bots: readonly string[];
  jobs: readonly string[];
}

/** The known labels of a runtime: its tenants, its loaded bots and the jobs their manifests schedule. */
export function knownLabels(
  tenants: readonly { id: string }[],
  bots: readonly { name: string; manifest: { schedules: readonly { job: string }[] } }[],
): KnownLabels {
  return {
    tenants: tenants.map((t) => t.id),
    bots: bots.map((b) => b.name),
    jobs: bots.flatMap((b) => b.manifest.schedules.map((s) => s.job)),
  };
}

/** `{ tenant, bot, job, event }` label values, each mapped to itself when known, else `other`. */
type Bound = (labels: Record<string, string | number>) => Record<string, string | number>;

function boundBy(known: KnownLabels): Bound {
  const sets: Record<string, ReadonlySet<string>> = {
    tenant: new Set(known.tenants),
    bot: new Set(known.bots),
    job: new Set(known.jobs),
    // the short names bots use (src/webhooks/events.ts): the same series whatever a tenant's event prefix
    event: new Set<string>([...EVENT_NAMES, ...REPORT_NAMES]),
  };
  return (labels) => {
    const out: Record<string, string | number> = {};
    for (const [name, value] of Object.entries(labels)) {
      const set = sets[name];
      out[name] = set && !set.has(String(value)) ? OTHER_LABEL : value;
    }
    return out;
  };
}

/** A counter whose caller-fed labels are bounded (see `KnownLabels`). */
export class BoundedCounter<T extends string> {
  constructor(
    private readonly counter: Counter<T>,
    private readonly bound: Bound,
  ) {}

  inc(labels: LabelValues<T>, value?: number): void {
    this.counter.inc(this.bound(labels as Record<string, string | number>) as LabelValues<T>, value);
  }
}

/** A histogram whose caller-fed labels are bounded (see `KnownLabels`). */
export class BoundedHistogram<T extends string> {
  constructor(
    private readonly histogram: Histogram<T>,
    private readonly bound: Bound,
  ) {}

  /** Starts a timer; calling what it answers observes the time passed. */
  startTimer(labels: LabelValues<T>): () => number {
    const end = this.histogram.startTimer(this.bound(labels as Record<string, string | number>) as LabelValues<T>);
    return () => end();
  }
}

/**
 * The runtime's Prometheus metrics (`GET /metrics`), on a registry of its own (no global state: two
 * runtimes in one process, as in tests, keep separate counts). Labels a caller can choose (tenant,
 * bot, job, event) take known values only, `other` for the rest.
 */
export class RuntimeMetrics {
  readonly registry = new Registry();
  readonly deliveriesReceived: BoundedCounter<'tenant' | 'bot' | 'event' | 'duplicate'>;
  readonly deliveriesRejected = new Counter({
    name: 'intrabot_deliveries_rejected_total',
    help: 'Deliveries refused by the receiver, by reason',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  readonly handlerRuns: BoundedCounter<'bot' | 'outcome'>;
  readonly handlerDuration: BoundedHistogram<'bot'>;
  readonly jobRuns: BoundedCounter<'bot' | 'job' | 'outcome'>;
  readonly outboxDepth = new Gauge({ name: 'intrabot_outbox_depth', help: 'Messages queued in the outbox (pending or in flight)', registers: [this.registry] });
  readonly outboxDead = new Gauge({ name: 'intrabot_outbox_dead_letters', help: 'Messages in the outbox dead-letter list', registers: [this.registry] });
  readonly botPaused = new Gauge({
    name: 'intrabot_bot_paused',
    help: 'Whether a deployed bot is paused (1) or runs (0)',
    labelNames: ['tenant', 'bot'],
    registers: [this.registry],
  });
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
  /** `key` is a configured key's name (or `none`), `status` a class (`2xx`): both bounded by construction. */
  readonly proxyCalls = new Counter({
    name: 'intrabot_proxy_calls_total',
    help: 'Proxy calls by key and status class',
    labelNames: ['key', 'status'],
    registers: [this.registry],
  });

  constructor(options: { known: KnownLabels; defaults?: boolean }) {
    const bound = boundBy(options.known);
    this.deliveriesReceived = new BoundedCounter(
      new Counter({
        name: 'intrabot_deliveries_received_total',
        help: 'Signed deliveries accepted into the inbox',
        labelNames: ['tenant', 'bot', 'event', 'duplicate'],
        registers: [this.registry],
      }),
      bound,
    );
    this.handlerRuns = new BoundedCounter(
      new Counter({
        name: 'intrabot_handler_runs_total',
        help: 'Handler runs by outcome (handled, ignored, failed)',
        labelNames: ['bot', 'outcome'],
        registers: [this.registry],
      }),
      bound,
    );
    this.handlerDuration = new BoundedHistogram(
      new Histogram({
        name: 'intrabot_handler_duration_seconds',
        help: 'How long handler runs take',
        labelNames: ['bot'],
        buckets: [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30],
        registers: [this.registry],
      }),
      bound,
    );
    this.jobRuns = new BoundedCounter(
      new Counter({ name: 'intrabot_job_runs_total', help: 'Job runs by outcome', labelNames: ['bot', 'job', 'outcome'], registers: [this.registry] }),
      bound,
    );
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
