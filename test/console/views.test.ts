import { describe, expect, it } from 'vitest';
import { DeliveryQuerySchema, OutboxQuerySchema } from '../../src/console/console-views';
import { redactSecrets } from '../../src/console/redact-secrets';
import { BotManifestSchema } from '../../src/bots/manifest';
import { summarise } from '../../src/console/views/bot-views';
import { deliveriesView, type HandledInput } from '../../src/console/views/delivery-rows';
import { outboxView } from '../../src/console/views/outbox-rows';
import { rateView } from '../../src/console/views/rate-view';
import type { InboxEntry } from '../../src/store/inbox';
import type { QueueEntry } from '../../src/store/queue';

function inbox(over: Partial<InboxEntry> & { id: string; deliveryId?: string; bot?: string }): InboxEntry {
  const { deliveryId = over.id, bot = 'ops', ...rest } = over;
  return {
    target: `sandbox:${bot}:${deliveryId}`,
    payload: { tenant: 'sandbox', bot, deliveryId, dedupeKey: null, event: 'post.created', envelope: { event: 'service.post.created' } },
    state: 'pending',
    attempts: 0,
    lastError: null,
    deadReason: null,
    enqueuedAt: 1_000,
    notBefore: 1_000,
    leaseUntil: null,
    ...rest,
  };
}

function handled(over: Partial<HandledInput> & { deliveryId: string }): HandledInput {
  return {
    tenant: 'sandbox',
    bot: 'ops',
    event: 'post.created',
    outcome: 'handled',
    detail: 'command oncall',
    recovered: false,
    at: 2_000,
    durationMs: 12,
    ...over,
  };
}

describe('the deliveries timeline', () => {
  const query = DeliveryQuerySchema.parse({});

  it('tells waiting, in progress, retrying and dead deliveries apart, with the error or reason of each', () => {
    const view = deliveriesView(
      {
        live: [
          inbox({ id: 'a' }),
          inbox({ id: 'b', state: 'leased', attempts: 1 }),
          inbox({ id: 'c', attempts: 1, lastError: 'status page down', notBefore: 6_000 }),
        ],
        dead: [inbox({ id: 'd', state: 'dead', attempts: 3, lastError: 'x', deadReason: 'status page down' })],
        handled: [],
      },
      query,
      5_000,
    );
    expect(Object.fromEntries(view.rows.map((r) => [r.deliveryId, [r.status, r.detail, r.entryId]]))).toEqual({
      a: ['waiting', null, 'a'],
      b: ['in progress', null, 'b'],
      c: ['retrying', 'status page down', 'c'],
      d: ['dead', 'status page down', 'd'],
    });
    expect(view.rows.find((r) => r.deliveryId === 'c')?.nextAttemptAt).toBe(6_000);
    expect(view.counts).toEqual({ waiting: 1, 'in progress': 1, retrying: 1, dead: 1, handled: 0, ignored: 0 });
  });

  it('lists what the bots did, newest first, and a delivery handled a moment ago once (the history wins over its inbox entry)', () => {
    const view = deliveriesView(
      {
        live: [inbox({ id: 'e1', deliveryId: 'x', state: 'leased', attempts: 1 })],
        dead: [],
        handled: [handled({ deliveryId: 'x', at: 3_000 }), handled({ deliveryId: 'y', outcome: 'ignored', detail: 'loop prevention: own_bot', at: 4_000 })],
      },
      query,
      5_000,
    );
    expect(view.rows.map((r) => [r.deliveryId, r.status, r.detail])).toEqual([
      ['y', 'ignored', 'loop prevention: own_bot'],
      ['x', 'handled', 'command oncall'],
    ]);
  });

  it('filters by bot and status, counting per status over the bot before the status filter and the limit', () => {
    const sources = {
      live: [inbox({ id: 'a', bot: 'kudos' })],
      dead: [inbox({ id: 'b', state: 'dead', deadReason: 'boom' }), inbox({ id: 'c', state: 'dead', deadReason: 'boom', enqueuedAt: 1_500 })],
      handled: [handled({ deliveryId: 'h' })],
    };
    const view = deliveriesView(sources, DeliveryQuerySchema.parse({ bot: 'ops', status: 'dead', limit: '1' }), 5_000);
    expect(view.rows.map((r) => r.deliveryId)).toEqual(['c']);
    expect(view.counts).toMatchObject({ dead: 2, handled: 1, waiting: 0 });
    expect(view.perBot).toEqual({ ops: { waiting: 0, 'in progress': 0, retrying: 0, dead: 2, handled: 1, ignored: 0 } });
  });
});

describe('the outbox view', () => {
  const entry = (over: Partial<QueueEntry> & { id: string }): QueueEntry => ({
    target: 'sandbox:wall:3',
    payload: {
      v: 1,
      entry: { kind: 'post', tenant: 'sandbox', wallId: 3, body: 'Deploy   finished\nall green' },
      deadlineAt: 99_000,
      onUncertain: 'resend',
      coalescible: true,
    },
    state: 'pending',
    attempts: 0,
    lastError: null,
    deadReason: null,
    enqueuedAt: 1_000,
    notBefore: 1_000,
    leaseUntil: null,
    ...over,
  });

  it('shows each message in a few words with its state, error or reason, and the digest a storm became', () => {
    const alertId = `alert-${'ab'.repeat(16)}`;
    const view = outboxView(
      {
        live: [
          entry({ id: 'q' }),
          entry({ id: 'f', state: 'leased' }),
          entry({ id: 'r', lastError: '503 from the platform', attempts: 2 }),
          entry({ id: alertId }),
        ],
        dead: [entry({ id: 'd', state: 'dead', deadReason: '422 body: too long' })],
        digests: new Map([['f', { parts: ['one', 'two'], sent: 1, members: ['m1', 'm2', 'm3'] }]]),
      },
      OutboxQuerySchema.parse({}),
      5_000,
    );
    expect(view.rows.map((r) => [r.id, r.status, r.lastError ?? r.deadReason])).toEqual([
      ['q', 'queued', null],
      ['f', 'in flight', null],
      ['r', 'retrying', '503 from the platform'],
      [alertId, 'queued', null],
      ['d', 'dead', '422 body: too long'],
    ]);
    expect(view.rows[0]).toMatchObject({ kind: 'post', summary: 'Deploy finished all green', tenant: 'sandbox', deadlineAt: 99_000, fromAlerts: false });
    expect(view.rows[3]?.fromAlerts).toBe(true);
    expect(view.rows[1]?.digest).toEqual({ entryId: 'f', target: 'sandbox:wall:3', parts: 2, sent: 1, members: 3 });
    expect(view.digests).toEqual([{ entryId: 'f', target: 'sandbox:wall:3', parts: 2, sent: 1, members: 3 }]);
    expect(view.counts).toEqual({ queued: 2, 'in flight': 1, retrying: 1, dead: 1 });
  });

  it('names an incoming webhook by its id, never by the URL the secret holds', () => {
    const view = outboxView(
      {
        live: [
          entry({
            id: 'i',
            target: 'sandbox:incoming:4',
            payload: {
              v: 1,
              entry: {
                kind: 'incoming',
                tenant: 'sandbox',
                webhook: { id: '4', urlSecretRef: 'incoming:sandbox:alerts:oncall' },
                action: 'chat_message',
                payload: { text: 'disk full' },
              },
              deadlineAt: 9,
              onUncertain: 'resend',
              coalescible: true,
            },
          }),
        ],
        dead: [],
        digests: new Map(),
      },
      OutboxQuerySchema.parse({}),
      5_000,
    );
    expect(view.rows[0]).toMatchObject({ kind: 'incoming', summary: 'disk full', target: 'sandbox:incoming:4' });
    expect(JSON.stringify(view)).not.toContain('urlSecretRef');
  });
});

describe('the rate budgets view', () => {
  it("lists every tenant's token before its first request, named budgets by name, and a budget it cannot name as such", () => {
    const view = rateView({
      now: 10_000,
      bucketMs: 1_000,
      spanMs: 60_000,
      keys: [
        { key: 'rl:hook', last: { limit: 60, remaining: 50, resetAtMs: 20_000, at: 9_000 }, requestsLastMinute: 10, throttledLastMinute: 0, samples: [] },
        { key: 'rl:stray', last: { limit: 60, remaining: 0, resetAtMs: 5_000, at: 4_000 }, requestsLastMinute: 0, throttledLastMinute: 1, samples: [] },
      ],
      labels: new Map([
        ['rl:token', { kind: 'token', label: 'Token of tenant sandbox', tenant: 'sandbox' }],
        ['rl:hook', { kind: 'incoming', label: 'Incoming webhook of alerts, target oncall (tenant sandbox)', tenant: 'sandbox' }],
        ['rl:unused-hook', { kind: 'incoming', label: 'never used', tenant: 'sandbox' }],
      ]),
    });
    expect(view.budgets.map((b) => [b.kind, b.label.slice(0, 20), b.remaining])).toEqual([
      ['token', 'Token of tenant sand', null],
      ['incoming', 'Incoming webhook of ', 50],
      // past the platform's reset the budget is whole again
      ['other', 'A budget the runtime', 60],
    ]);
  });
});

describe('scrubbing secrets', () => {
  it('replaces a secret as written, as escaped in JSON and as URL-encoded', () => {
    const secret = 'tok/with "quotes"+more';
    const text = JSON.stringify({ a: secret, b: `https://h/incoming/${encodeURIComponent(secret)}` });
    const out = redactSecrets(text, [secret]);
    expect(out).not.toContain('quotes');
    expect(JSON.parse(out)).toEqual({ a: '[redacted]', b: 'https://h/incoming/[redacted]' });
  });

  it('leaves values too short to be secrets alone (they would match ordinary words)', () => {
    expect(redactSecrets('{"state":"ok"}', ['ok', 'state'])).toBe('{"state":"ok"}');
  });

  it('replaces the longer of two overlapping secrets whole', () => {
    expect(redactSecrets('https://h/incoming/abcdefgh12', ['https://h/incoming/abcdefgh12', 'abcdefgh12'])).toBe('[redacted]');
  });
});

// issue #24, item 3: a bot's card says what it does in one line
describe("a bot's one-line description", () => {
  const manifest = (extra: Record<string, unknown>) => BotManifestSchema.parse({ name: 'probe', display_name: 'Probe', ...extra });

  it("sums up a bot without a description from its commands, events, jobs and alert inputs, commands' own events left out", () => {
    const bot = manifest({
      events: ['post.created', 'comment.created', 'user.registered'],
      schedules: [{ job: 'greet', cron: '0 8 * * *' }],
      alerts: [{ input: 'grafana', format: 'grafana', auth: { bearer: 'x'.repeat(16) }, targets: ['ops'] }],
      targets: { ops: { wall: 3 } },
    });
    expect(summarise(bot, ['oncall', 'status'])).toBe(
      'Answers /oncall, /status; reacts to user.registered; runs greet (0 8 * * *); forwards alerts from grafana',
    );
    expect(summarise(manifest({ events: ['post.created'] }), [])).toBe('Reacts to post.created');
    expect(summarise(manifest({}), [])).toBe('Does nothing yet: no command, event, job or alert input');
  });

  it("takes bot.yaml's description as written, and refuses an empty one naming the field", () => {
    expect(manifest({ description: 'Greets new colleagues' }).description).toBe('Greets new colleagues');
    expect(() => manifest({ description: '  ' })).toThrow(/description/);
  });
});
