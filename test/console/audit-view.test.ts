import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/bots/audit-log';
import { AuditQuerySchema, AuditViewSchema, auditView } from '../../src/console/views/audit-view';

function record(over: Partial<AuditRecord> & { at: number }): AuditRecord {
  return { tenant: 'sandbox', bot: 'ops', kind: 'command', what: '/deploy', did: [], outcome: 'done', ...over };
}

const query = (over: Record<string, unknown> = {}) => AuditQuerySchema.parse(over);

describe('the audit log view', () => {
  it('lists the runs newest first, with who, where and what the bot did (null where a run has none)', () => {
    const view = auditView(
      {
        records: [
          record({ at: 1_000, who: { id: 10, name: 'Ada' }, where: 'post 7 on wall 1', did: ['comment to post 7'] }),
          record({ at: 3_000, kind: 'timeout', what: 'conversation confirm-deploy: timeout', where: 'post 7', did: ['comment to post 7'] }),
          record({ at: 2_000, kind: 'job', what: 'job digest' }),
        ],
        tenants: ['sandbox'],
      },
      query(),
      5_000,
    );
    expect(AuditViewSchema.parse(view)).toEqual(view);
    expect(view.rows.map((r) => r.what)).toEqual(['conversation confirm-deploy: timeout', 'job digest', '/deploy']);
    expect(view.rows[1]).toMatchObject({ kind: 'job', who: null, where: null, did: [], outcome: 'done', error: null });
    expect(view.rows[2]).toMatchObject({ who: { id: 10, name: 'Ada' }, where: 'post 7 on wall 1', did: ['comment to post 7'] });
    expect(view).toMatchObject({ now: 5_000, counts: { done: 3, failed: 0 }, bots: ['ops'], tenants: ['sandbox'] });
  });

  it('filters by bot, tenant and outcome; counts before the outcome filter; offers every bot that has records', () => {
    const records = [
      record({ at: 1, bot: 'ops' }),
      record({ at: 2, bot: 'kudos', outcome: 'failed', error: 'boom' }),
      record({ at: 3, bot: 'ops', tenant: 'acme', outcome: 'failed', error: 'down' }),
      record({ at: 4, bot: 'ops', outcome: 'failed', error: 'down again' }),
    ];
    const sources = { records, tenants: ['sandbox', 'acme'] };
    const ops = auditView(sources, query({ bot: 'ops' }), 10);
    expect(ops.rows.map((r) => r.at)).toEqual([4, 3, 1]);
    expect(ops.counts).toEqual({ done: 1, failed: 2 });
    expect(ops.bots).toEqual(['kudos', 'ops']);
    expect(auditView(sources, query({ bot: 'ops', tenant: 'sandbox' }), 10).rows.map((r) => r.at)).toEqual([4, 1]);
    const failed = auditView(sources, query({ bot: 'ops', outcome: 'failed' }), 10);
    expect(failed.rows.map((r) => r.error)).toEqual(['down again', 'down']);
    expect(failed.counts).toEqual({ done: 1, failed: 2 });
    expect(auditView(sources, query({ bot: 'nobody' }), 10)).toMatchObject({ rows: [], counts: { done: 0, failed: 0 }, bots: ['kudos', 'ops'] });
  });

  it('applies the limit after the filters, so a quiet bot keeps its runs behind a busy one', () => {
    const busy = Array.from({ length: 50 }, (_, i) => record({ at: 100 + i, bot: 'busy' }));
    const view = auditView({ records: [record({ at: 1, bot: 'quiet' }), ...busy], tenants: ['sandbox'] }, query({ bot: 'quiet', limit: 10 }), 200);
    expect(view.rows.map((r) => r.bot)).toEqual(['quiet']);
    expect(auditView({ records: busy, tenants: ['sandbox'] }, query({ limit: '10' }), 200).rows).toHaveLength(10);
  });

  it("redacts bearer tokens and incoming-webhook tokens from a failed run's error", () => {
    const error = 'POST https://h.example/api/open/v1/incoming/tok-abc123/x with svc_live.token-9 refused';
    const [row] = auditView({ records: [record({ at: 1, outcome: 'failed', error })], tenants: ['sandbox'] }, query(), 2).rows;
    expect(row!.error).toBe('POST https://h.example/api/open/v1/incoming/[redacted]/x with svc_[redacted] refused');
  });

  it('gives a failed run without a message an error all the same, and a done run none', () => {
    const view = auditView({ records: [record({ at: 2, outcome: 'failed' }), record({ at: 1, error: 'stale' })], tenants: ['sandbox'] }, query(), 3);
    expect(view.rows.map((r) => r.error)).toEqual(['failed without a message', null]);
  });

  it('refuses a bad query naming the field', () => {
    for (const [input, field] of [
      [{ outcome: 'lost' }, 'outcome'],
      [{ limit: '0' }, 'limit'],
      [{ limit: '1001' }, 'limit'],
      [{ bot: '' }, 'bot'],
    ] as const) {
      const parsed = AuditQuerySchema.safeParse(input);
      expect(parsed.success, JSON.stringify(input)).toBe(false);
      expect(parsed.error!.issues[0]!.path).toEqual([field]);
    }
    expect(AuditQuerySchema.safeParse({ colour: 'red' }).success).toBe(false);
  });
});
