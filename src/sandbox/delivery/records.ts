import { z } from 'zod';

/** The record kinds the outgoing side of the sandbox keeps (endpoints, reports, the queue and its log). */
export const DELIVERY_KIND = {
  webhooks: 'webhooks',
  reports: 'reports',
  jobs: 'delivery_jobs',
  attempts: 'deliveries',
} as const;

const AuthFields = {
  auth_type: z.enum(['bearer_token', 'basic_auth', 'api_key']).nullable(),
  auth_value: z.string().nullable(),
  auth_header: z.string().nullable(),
  custom_headers: z.record(z.string(), z.string()).nullable(),
};

/** Where a delivery goes and how it is signed and authenticated: shared by webhook endpoints and reports. */
export const DeliveryTargetFieldsSchema = z.object({ url: z.string(), secret: z.string(), ...AuthFields });
export type DeliveryTargetFields = z.infer<typeof DeliveryTargetFieldsSchema>;

/**
 * spec: Outgoing webhook endpoint. Secrets, credentials and header values are kept in the sandbox's
 * own state (the platform encrypts them) and never leave it except through the reveal endpoint.
 */
export const WebhookEndpointRecordSchema = DeliveryTargetFieldsSchema.extend({
  id: z.number().int(),
  /** spec: Outgoing webhook management — "Endpoints belong to the token that created them." */
  token_id: z.number().int(),
  name: z.string(),
  is_active: z.boolean(),
  /** Full event names (`service.post.created`), distinct. */
  events: z.array(z.string()),
  /** Entity ids per full event name, kept only for filterable events the endpoint subscribes to. */
  filters: z.record(z.string(), z.array(z.number().int())),
  total_deliveries: z.number().int(),
  last_used_at: z.number().nullable(),
  revoked_at: z.number().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type WebhookEndpointRecord = z.infer<typeof WebhookEndpointRecordSchema>;

/** spec: Outgoing reports — configured in the admin interface (here: the control API). */
export const ReportRecordSchema = DeliveryTargetFieldsSchema.extend({
  id: z.number().int(),
  report: z.literal('todo_list_stats'),
  schedule: z.enum(['daily', 'weekly']),
  /** The scheduled slot (epoch ms) last sent, so a slot goes out once even across restarts. */
  last_slot_at: z.number().nullable(),
  created_at: z.number(),
});
export type ReportRecord = z.infer<typeof ReportRecordSchema>;

export type TargetKind = 'webhook' | 'report';

/**
 * One envelope on its way to one target. Persisted so that retries due later on the sandbox clock
 * survive a restart; `next_at` is when the next attempt is due (null once settled).
 */
export const DeliveryJobRecordSchema = z.object({
  id: z.number().int(),
  target_kind: z.enum(['webhook', 'report']),
  target_id: z.number().int(),
  delivery_id: z.string(),
  event: z.string(),
  /** The JSON body exactly as sent; every attempt sends the same bytes. */
  body: z.string(),
  first_attempt_at: z.number().nullable(),
  attempts: z.number().int(),
  next_at: z.number().nullable(),
  state: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
  /** A ping is tried once and answered to its caller; it is not retried. */
  retry: z.boolean(),
  created_at: z.number(),
});
export type DeliveryJobRecord = z.infer<typeof DeliveryJobRecordSchema>;

/** One HTTP attempt, as `GET /_sandbox/deliveries` shows it (auth and custom header values masked). */
export const DeliveryAttemptRecordSchema = z.object({
  id: z.number().int(),
  endpoint_id: z.number().int().nullable(),
  report_id: z.number().int().nullable(),
  job_id: z.number().int(),
  url: z.string(),
  event: z.string(),
  delivery_id: z.string(),
  attempt: z.number().int(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  ok: z.boolean(),
  request_headers: z.record(z.string(), z.string()),
  body: z.string(),
  created_at: z.number(),
});
export type DeliveryAttemptRecord = z.infer<typeof DeliveryAttemptRecordSchema>;
