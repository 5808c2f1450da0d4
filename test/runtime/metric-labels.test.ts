import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { allowedLabelValues, boundBy, FIXED_LABEL_VALUES, OTHER_LABEL, statusLabel, type LabelName } from '../../src/runtime/operations/metric-labels';
import { RuntimeMetrics } from '../../src/runtime/operations/metrics';
import { recordQueueGauges } from '../../src/runtime/operations/queue-gauges';
import { openStore } from '../../src/store';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';

// Issue #24, item 1: every label of /metrics takes values from a bounded set, whatever the input.
const KNOWN = { tenants: ['acme'], bots: ['kudos'], jobs: ['digest'], proxyKeys: ['dashboards'] };
const LABEL_NAMES = Object.keys(FIXED_LABEL_VALUES) as LabelName[];

/** Every label `name="value"` pair of the exposition text, default (process) metrics left out. */
function labelPairs(text: string): { metric: string; name: string; value: string }[] {
  const pairs: { metric: string; name: string; value: string }[] = [];
  for (const line of text.split('\n')) {
    const match = /^(intrabot_[a-z_]+)\{(.*)\} /.exec(line);
    if (!match || /^intrabot_(process|nodejs)_/.test(match[1]!)) continue;
    for (const [, name, value] of match[2]!.matchAll(/([a-z_]+)="([^"]*)"/g)) if (name !== 'le') pairs.push({ metric: match[1]!, name: name!, value: value! });
  }
  return pairs;
}

describe('metric labels', () => {
  it('declares every label of every runtime metric in the bounded label sets', () => {
    const metrics = new RuntimeMetrics({ known: KNOWN, defaults: false });
    const own = metrics.registry.getMetricsAsArray() as unknown as { name: string; labelNames: string[] }[];
    expect(own.length).toBeGreaterThan(10);
    for (const metric of own) for (const label of metric.labelNames) expect(LABEL_NAMES, `${metric.name}{${label}}`).toContain(label);
  });

  it('maps a value outside its label set to other, and keeps a known one', () => {
    const bound = boundBy(KNOWN);
    const made = Object.fromEntries(LABEL_NAMES.map((name) => [name, `made-up-${crypto.randomUUID()}`]));
    expect(Object.values(bound(made))).toEqual(LABEL_NAMES.map(() => OTHER_LABEL));
    expect(bound({ tenant: 'acme', bot: 'kudos', job: 'digest', key: 'dashboards', event: 'post.created', status: '429' })).toEqual({
      tenant: 'acme',
      bot: 'kudos',
      job: 'digest',
      key: 'dashboards',
      event: 'post.created',
      status: '429',
    });
  });

  it('refuses a label that has no bounded set, so a new metric cannot label by id', () => {
    const bound = boundBy(KNOWN);
    expect(() => bound({ delivery_id: 'x' } as never)).toThrow(/delivery_id has no bounded set/);
  });

  it('exposes no label value outside the allowed sets after every metric is fed made-up names', async () => {
    const metrics = new RuntimeMetrics({ known: KNOWN, defaults: false });
    for (let i = 0; i < 50; i++) {
      const junk = `id-${i}-/walls/${i}/posts`;
      metrics.deliveriesReceived.inc({ tenant: junk, bot: junk, event: junk, duplicate: junk });
      metrics.deliveriesRejected.inc({ reason: junk });
      metrics.handlerRuns.inc({ bot: junk, outcome: junk });
      metrics.handlerDuration.startTimer({ bot: junk })();
      metrics.deliveryLag.observe({ bot: junk }, 1);
      metrics.jobRuns.inc({ bot: junk, job: junk, outcome: junk });
      metrics.inboxEntries.set({ state: junk }, 1);
      metrics.outboxEntries.set({ state: junk }, 1);
      metrics.botPaused.set({ tenant: junk, bot: junk }, 1);
      metrics.rateBudgetRemaining.set({ tenant: junk }, 1);
      metrics.rateBudgetWait.observe({ tenant: junk, budget: junk }, 1);
      metrics.platformRequests.inc({ tenant: junk, method: junk, status: junk });
      metrics.proxyCalls.inc({ key: junk, status: junk });
    }
    const allowed = allowedLabelValues(KNOWN);
    const pairs = labelPairs(await metrics.render());
    expect(pairs.length).toBeGreaterThan(0);
    for (const pair of pairs) expect(allowed[pair.name as LabelName], `${pair.metric}{${pair.name}="${pair.value}"}`).toContain(pair.value);
    expect(new Set(pairs.map((p) => p.value))).toEqual(new Set([OTHER_LABEL]));
  });

  it.each([
    [200, '2xx'],
    [204, '2xx'],
    [302, '3xx'],
    [404, '4xx'],
    [429, '429'],
    [503, '5xx'],
    [undefined, 'error'],
    [999, OTHER_LABEL],
  ])('labels status %s as %s', (status, label) => {
    expect(statusLabel(status)).toBe(label);
  });
});

const REDIS = redisTestUrl();

describe.each([
  { kind: 'sqlite' as const, skip: false },
  // skipped with the reason printed by redisTestUrl when INTRABOT_REDIS_URL is unset (never in CI)
  { kind: 'redis' as const, skip: !REDIS },
])('queue gauges on a $kind store', ({ kind, skip }) => {
  it.skipIf(skip)('counts the inbox and outbox entries per state: pending, leased, dead', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intrabot-queue-gauges-'));
    const prefix = uniqueRedisPrefix('queue-gauges');
    const clock = new AdjustableClock({ frozen: true });
    const config = kind === 'redis' ? { kind, url: REDIS!, prefix } : { kind, path: join(dir, 'intrabot.db') };
    const store = await openStore(config, { clock, secretKey: 'queue-gauges-test-key' });
    try {
      for (const id of ['a', 'b', 'c', 'd'])
        await store.inbox.accept({ tenant: 'acme', bot: 'kudos', deliveryId: id, envelope: { id, event: 'service.post.created', payload: {} } });
      const dead = (await store.inbox.reserve(60_000))!;
      await store.inbox.deadLetter(dead, 'failed for good');
      await store.inbox.reserve(60_000);
      await store.outbox.enqueue({ target: 'wall:1', payload: { n: 1 } });
      const metrics = new RuntimeMetrics({ known: KNOWN, defaults: false });
      await recordQueueGauges(metrics, store);
      const text = await metrics.render();
      expect(text).toContain('intrabot_inbox_entries{state="pending"} 2');
      expect(text).toContain('intrabot_inbox_entries{state="leased"} 1');
      expect(text).toContain('intrabot_inbox_entries{state="dead"} 1');
      expect(text).toContain('intrabot_inbox_dead_letters 1');
      expect(text).toContain('intrabot_outbox_entries{state="pending"} 1');
      expect(text).toContain('intrabot_outbox_entries{state="dead"} 0');
      expect(text).toContain('intrabot_outbox_depth 1');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
      if (kind === 'redis') await deleteRedisPrefix(REDIS!, prefix);
    }
  });
});
