import type { Counter, Gauge, Histogram, LabelValues } from 'prom-client';
import { EVENT_NAMES, REPORT_NAMES } from '../../webhooks/events';
import { REJECT_REASONS } from '../../webhooks/receiver';

/** The value a label takes for anything outside its known set. */
export const OTHER_LABEL = 'other';

/**
 * The values the labels fed by callers may take: the configured tenants, the loaded bots, the jobs
 * their manifests schedule, the proxy's key names. Anything else counts as `other`, so a caller cannot
 * grow the number of series (each one is memory in every scrape, here and in Prometheus) by inventing names.
 */
export interface KnownLabels {
  tenants: readonly string[];
  bots: readonly string[];
  jobs: readonly string[];
  proxyKeys?: readonly string[];
}

/** The known labels of a runtime: its tenants, its loaded bots and the jobs their manifests schedule. */
export function knownLabels(
  tenants: readonly { id: string }[],
  bots: readonly { name: string; manifest: { schedules: readonly { job: string }[] } }[],
  proxyKeys: readonly { name: string }[] = [],
): KnownLabels {
  return {
    tenants: tenants.map((t) => t.id),
    bots: bots.map((b) => b.name),
    jobs: bots.flatMap((b) => b.manifest.schedules.map((s) => s.job)),
    proxyKeys: proxyKeys.map((k) => k.name),
  };
}

/**
 * Every label name a runtime metric may carry, with the values it takes whatever the input: fixed by the
 * code that sets it. `tenant`, `bot`, `job` and `key` add the runtime's known names (`KnownLabels`). A
 * label not listed here cannot be set (the bound throws), so a new metric cannot slip in an id.
 */
export const FIXED_LABEL_VALUES = {
  tenant: [],
  bot: [],
  job: [],
  key: ['none'],
  // the short names bots use (src/webhooks/events.ts): the same series whatever a tenant's event prefix
  event: [...EVENT_NAMES, ...REPORT_NAMES],
  duplicate: ['true', 'false'],
  reason: [...REJECT_REASONS],
  outcome: ['handled', 'ignored', 'failed', 'ok'],
  state: ['pending', 'leased', 'dead'],
  method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
  // 429 apart from the other 4xx: it is the answer an operator of a paced client watches for
  status: ['1xx', '2xx', '3xx', '4xx', '429', '5xx', 'error'],
  budget: ['token', 'incoming_webhook'],
} as const satisfies Record<string, readonly string[]>;

export type LabelName = keyof typeof FIXED_LABEL_VALUES;

/** Maps each label value to itself when allowed, else to `other`. */
export type Bound = (labels: Partial<Record<LabelName, string | number>>) => Partial<Record<LabelName, string>>;

/** The values each label may take in a runtime that knows `known`, `other` included. */
export function allowedLabelValues(known: KnownLabels): Record<LabelName, ReadonlySet<string>> {
  const extra: Partial<Record<LabelName, readonly string[]>> = {
    tenant: known.tenants,
    bot: known.bots,
    job: known.jobs,
    key: known.proxyKeys ?? [],
  };
  const sets = {} as Record<LabelName, ReadonlySet<string>>;
  for (const name of Object.keys(FIXED_LABEL_VALUES) as LabelName[]) {
    sets[name] = new Set<string>([...FIXED_LABEL_VALUES[name], ...(extra[name] ?? []), OTHER_LABEL]);
  }
  return sets;
}

export function boundBy(known: KnownLabels): Bound {
  const sets = allowedLabelValues(known);
  return (labels) => {
    const out: Partial<Record<LabelName, string>> = {};
    for (const [name, value] of Object.entries(labels) as [LabelName, string | number][]) {
      const set = sets[name];
      // a programming error, not input: a metric declared a label the bound does not know
      if (set === undefined) throw new Error(`metric label ${name} has no bounded set (src/runtime/operations/metric-labels.ts)`);
      const text = String(value);
      out[name] = set.has(text) ? text : OTHER_LABEL;
    }
    return out;
  };
}

/** An HTTP status as the `status` label: its class, 429 apart, `error` when no answer came. */
export function statusLabel(status: number | undefined): string {
  if (status === undefined) return 'error';
  if (status === 429) return '429';
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : OTHER_LABEL;
}

/** A counter whose labels are bounded (see `FIXED_LABEL_VALUES`). */
export class BoundedCounter<T extends LabelName> {
  constructor(
    private readonly counter: Counter<T>,
    private readonly bound: Bound,
  ) {}

  inc(labels: Record<T, string | number>, value?: number): void {
    this.counter.inc(this.bound(labels) as LabelValues<T>, value);
  }
}

/** A gauge whose labels are bounded (see `FIXED_LABEL_VALUES`). */
export class BoundedGauge<T extends LabelName> {
  constructor(
    private readonly gauge: Gauge<T>,
    private readonly bound: Bound,
  ) {}

  set(labels: Record<T, string | number>, value: number): void {
    this.gauge.set(this.bound(labels) as LabelValues<T>, value);
  }
}

/** A histogram whose labels are bounded (see `FIXED_LABEL_VALUES`). */
export class BoundedHistogram<T extends LabelName> {
  constructor(
    private readonly histogram: Histogram<T>,
    private readonly bound: Bound,
  ) {}

  /** Starts a timer; calling what it answers observes the time passed. */
  startTimer(labels: Record<T, string | number>): () => number {
    return this.histogram.startTimer(this.bound(labels) as LabelValues<T>);
  }

  observe(labels: Record<T, string | number>, value: number): void {
    this.histogram.observe(this.bound(labels) as LabelValues<T>, value);
  }
}
