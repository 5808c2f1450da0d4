import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isAllowedWebhookUrl } from '../../../api/schemas/webhook';
import type { SandboxContext } from '../../context';
import { maskHeaderValues } from '../../delivery/delivery-headers';
import { deliveryEngineFor } from '../../delivery/engine-registry';
import { DELIVERY_KIND, type ReportRecord } from '../../delivery/records';
import { reportCutoff, reportEventName, sendReport } from '../../delivery/report-runner';
import { notFound } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';

/** The admin interface's report form (spec: Outgoing reports — "Configured in the admin interface"). */
const ReportCreateSchema = z
  .strictObject({
    url: z.string().refine(isAllowedWebhookUrl, { error: 'url must be an https URL (http only on a loopback host)' }),
    schedule: z.enum(['daily', 'weekly']),
    secret: z.string().min(16, { error: 'secret must have at least 16 characters' }).optional(),
    auth_type: z.enum(['bearer_token', 'basic_auth', 'api_key']).optional(),
    auth_value: z.string().optional(),
    auth_header: z.string().min(1).optional(),
    custom_headers: z.record(z.string().min(1), z.string()).optional(),
  })
  .superRefine((value, issue) => {
    if (value.auth_type && value.auth_value === undefined)
      issue.addIssue({ code: 'custom', path: ['auth_value'], message: `auth_value is required with auth_type ${value.auth_type}` });
    if (value.auth_type === 'api_key' && !value.auth_header)
      issue.addIssue({ code: 'custom', path: ['auth_header'], message: 'auth_header is required with auth_type api_key' });
  });

function serializeReport(ctx: SandboxContext, report: ReportRecord): Record<string, unknown> {
  return {
    id: report.id,
    report: report.report,
    event: reportEventName(report.schedule),
    url: report.url,
    schedule: report.schedule,
    auth_type: report.auth_type,
    custom_headers: maskHeaderValues(report.custom_headers),
    last_sent_slot: ctx.isoOrNull(report.last_slot_at),
    created_at: ctx.iso(report.created_at),
  };
}

/** `POST|GET /_sandbox/reports`, `POST /_sandbox/reports/:id/test` (the admin's test button: yesterday's data, now). */
export function registerReportControl(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/_sandbox/reports', async (request, reply) => {
    const input = validate(ReportCreateSchema, request.body);
    const report = ctx.db.insert(DELIVERY_KIND.reports, {
      report: 'todo_list_stats',
      url: input.url,
      schedule: input.schedule,
      secret: input.secret ?? randomBytes(32).toString('hex'),
      auth_type: input.auth_type ?? null,
      auth_value: input.auth_type ? (input.auth_value ?? null) : null,
      auth_header: input.auth_type === 'api_key' ? (input.auth_header ?? null) : null,
      custom_headers: input.custom_headers ?? null,
      last_slot_at: null,
      created_at: ctx.now(),
    } satisfies Omit<ReportRecord, 'id'>);
    // the signing secret is shown this once, as the admin interface does when it creates one
    return reply.code(201).send({ data: { ...serializeReport(ctx, report), secret: report.secret } });
  });

  app.get('/_sandbox/reports', async () => ({ data: ctx.db.all<ReportRecord>(DELIVERY_KIND.reports).map((r) => serializeReport(ctx, r)) }));

  app.post('/_sandbox/reports/:id/test', async (request) => {
    const report = ctx.db.get<ReportRecord>(DELIVERY_KIND.reports, idParam((request.params as { id?: string }).id));
    if (!report) throw notFound();
    const engine = deliveryEngineFor(ctx);
    const job = sendReport(ctx, engine, report, reportCutoff(ctx.now()));
    const settled = await engine.run(job.id);
    return { data: { delivery_id: job.delivery_id, state: settled?.state ?? 'pending' } };
  });
}
