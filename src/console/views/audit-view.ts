import { z } from 'zod';
import { redactSecrets as redactTokens } from '../../api/errors';
import type { AuditRecord } from '../../bots/audit-log';

/**
 * The console's audit log (issue #16): what bots using the `auditLog` middleware did, as the store keeps
 * it (src/runtime/ingest/audit-trail.ts). Its schema lives here rather than in console-views.ts, beside the
 * one function that builds it.
 */

export const AuditOutcomeSchema = z.enum(['done', 'failed']);

/** One run of a bot's code: who set it off, what ran, where, what the bot queued, how it ended. */
export const AuditRowSchema = z.object({
  at: z.number(),
  tenant: z.string(),
  bot: z.string(),
  /** `command`, `event`, `job`, `report`, `help`, `unknown`, or a conversation's `answer`, `reask`, `not-asked`, `timeout`. */
  kind: z.string(),
  /** As the delivery log names the run: `/deploy`, `on.post.created`, `conversation confirm-deploy: timeout`. */
  what: z.string(),
  /** The employee behind it; null for jobs, reports and a timeout whose user's name is unknown. */
  who: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** `post 7 on wall 3`; null when the run happened nowhere in particular (a job). */
  where: z.string().nullable(),
  /** What the bot queued, in order (`comment to post 7`). */
  did: z.array(z.string()),
  outcome: AuditOutcomeSchema,
  /** A failed run's error message, tokens redacted. */
  error: z.string().nullable(),
});
export type AuditRow = z.infer<typeof AuditRowSchema>;

export const AuditQuerySchema = z.strictObject({
  bot: z.string().min(1).optional(),
  tenant: z.string().min(1).optional(),
  outcome: AuditOutcomeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1_000).default(200),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export const AuditViewSchema = z.object({
  now: z.number(),
  /** Newest first, after the filters and the limit. */
  rows: z.array(AuditRowSchema),
  /** Runs matching the bot and tenant asked for, per outcome, before the outcome filter and the limit. */
  counts: z.record(AuditOutcomeSchema, z.number()),
  /** Every bot with records, whatever the filters: what the page offers to filter by. */
  bots: z.array(z.string()),
  /** The configured tenants: the page names a row's tenant when there are several. */
  tenants: z.array(z.string()),
});
export type AuditView = z.infer<typeof AuditViewSchema>;

export interface AuditSources {
  /** The records, in any order (the trail answers newest first). */
  records: readonly AuditRecord[];
  tenants: readonly string[];
}

/**
 * The audit log as the console shows it, newest first, filtered by bot, tenant and outcome. An error's
 * text is a bot's own message and may quote anything: bearer tokens and incoming-webhook tokens are
 * redacted here, and the console scrubs the configured secrets from every answer besides.
 *
 * @example auditView({ records: await trail.recent(1_000), tenants: ['sandbox'] }, { bot: 'ops', limit: 200 }, clock.now())
 */
export function auditView(sources: AuditSources, query: AuditQuery, now: number): AuditView {
  const matching = sources.records
    .filter((r) => (query.bot === undefined || r.bot === query.bot) && (query.tenant === undefined || r.tenant === query.tenant))
    .sort((a, b) => b.at - a.at);
  const counts = { done: 0, failed: 0 };
  for (const record of matching) counts[record.outcome] += 1;
  const rows = matching
    .filter((r) => query.outcome === undefined || r.outcome === query.outcome)
    .slice(0, query.limit)
    .map(toRow);
  const bots = [...new Set(sources.records.map((r) => r.bot))].sort();
  return { now, rows, counts, bots, tenants: [...sources.tenants] };
}

function toRow(record: AuditRecord): AuditRow {
  return {
    at: record.at,
    tenant: record.tenant,
    bot: record.bot,
    kind: record.kind,
    what: record.what,
    who: record.who ?? null,
    where: record.where ?? null,
    did: [...record.did],
    outcome: record.outcome,
    error: record.outcome === 'failed' ? redactTokens(record.error ?? 'failed without a message') : null,
  };
}
