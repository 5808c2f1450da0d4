import { z } from 'zod';
import { DateTimeSchema, IdInputSchema, IdSchema, requiredText } from './common';

/** spec: Outgoing webhook endpoint — `auth_type`. */
export const WebhookAuthTypeSchema = z.enum(['bearer_token', 'basic_auth', 'api_key'], {
  error: 'auth_type must be one of bearer_token, basic_auth, api_key',
});
export type WebhookAuthType = z.infer<typeof WebhookAuthTypeSchema>;

/** spec: Outgoing webhook endpoint — secrets and header values are never returned (`secret` is an 8-character hint). */
export const OutgoingWebhookSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  url: z.string(),
  is_active: z.boolean(),
  events: z.array(z.string()),
  filters: z.record(z.string(), z.array(z.int())).nullable(),
  auth_type: WebhookAuthTypeSchema.nullable(),
  custom_headers: z.union([z.record(z.string(), z.string()), z.array(z.string())]).nullable(),
  secret: z.string(),
  total_deliveries: z.int(),
  last_used_at: DateTimeSchema.nullable(),
  revoked_at: DateTimeSchema.nullable(),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});
export type OutgoingWebhook = z.infer<typeof OutgoingWebhookSchema>;

/** GET /webhooks/{id}/secret: `{ data: { secret } }`. */
export const WebhookSecretSchema = z.looseObject({ secret: z.string() });
export type WebhookSecret = z.infer<typeof WebhookSecretSchema>;

/** POST /webhooks/{id}/ping: `{ ok, status }`, not wrapped in `data`. */
export const WebhookPingResultSchema = z.looseObject({ ok: z.boolean(), status: z.string() });
export type WebhookPingResult = z.infer<typeof WebhookPingResultSchema>;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for an https URL, or an http URL on a loopback host (a runtime on the same machine). */
export function isAllowedWebhookUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || url.hostname.startsWith('127.'));
}

// spec: Outgoing webhook management — url is HTTPS. Loopback http is our allowance for local runtimes.
const WebhookUrlSchema = z
  .string({ error: 'url is required' })
  .refine(isAllowedWebhookUrl, { error: 'url must be an https URL (http only on a loopback host)' });

const HeaderNameSchema = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: 'must be a valid header name' });

const webhookFields = {
  name: requiredText('name'),
  url: WebhookUrlSchema,
  // unknown event names are the platform's 422 (its catalogue of events is platform state)
  events: z
    .array(z.string().min(1, { error: 'event names must not be empty' }), { error: 'events must be an array of event names' })
    .min(1, { error: 'events must list at least one event' }),
  filters: z.record(z.string(), z.array(IdInputSchema), { error: 'filters must map event names to arrays of ids' }).optional(),
  auth_type: WebhookAuthTypeSchema.nullable().optional(),
  auth_value: z.string({ error: 'auth_value must be a string' }).optional(),
  auth_header: HeaderNameSchema.optional(),
  custom_headers: z.record(HeaderNameSchema, z.string(), { error: 'custom_headers must map header names to values' }).nullable().optional(),
};

interface AuthFields {
  auth_type?: WebhookAuthType | null | undefined;
  auth_value?: string | undefined;
  auth_header?: string | undefined;
}

/** spec: Delivery auth headers — api_key needs the header name it is sent in. */
function checkAuth(value: AuthFields, ctx: z.RefinementCtx): void {
  if (value.auth_type && value.auth_value === undefined) {
    ctx.addIssue({ code: 'custom', path: ['auth_value'], message: `auth_value is required with auth_type ${value.auth_type}` });
  }
  if (value.auth_type === 'api_key' && !value.auth_header) {
    ctx.addIssue({ code: 'custom', path: ['auth_header'], message: 'auth_header is required with auth_type api_key' });
  }
}

/** POST /webhooks body (spec: Outgoing webhook management, Create body). */
export const WebhookCreateSchema = z.strictObject(webhookFields).superRefine(checkAuth);
export type WebhookCreate = z.input<typeof WebhookCreateSchema>;

/**
 * PUT /webhooks/{id} body: only sent fields change; `events` replaces the event rules. Auth parts
 * may change one at a time (the platform keeps the stored ones), so checkAuth does not apply.
 */
export const WebhookUpdateSchema = z.strictObject({
  name: webhookFields.name.optional(),
  url: webhookFields.url.optional(),
  events: webhookFields.events.optional(),
  filters: webhookFields.filters,
  auth_type: webhookFields.auth_type,
  auth_value: webhookFields.auth_value,
  auth_header: webhookFields.auth_header,
  custom_headers: webhookFields.custom_headers,
});
export type WebhookUpdate = z.input<typeof WebhookUpdateSchema>;
