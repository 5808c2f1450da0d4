import { z } from 'zod';
import { RunRecordSchema } from '../scheduler/run-record';

/**
 * What the console shows, one schema per section: the JSON its routes answer and its server-sent
 * events carry. Views hold names, ids, states, times and reasons, never a secret: no token, signing
 * secret, incoming-webhook URL, proxy key or alert credential (the plugin also scrubs every answer
 * of the configured secrets, as a last line of defence).
 *
 * Times are milliseconds since the epoch on the runtime's clock; every view carries `now` on that
 * clock, so "3 min ago" is right when the sandbox's clock was advanced.
 */

const Ms = z.number();

/** One bot on one tenant: what provisioning made of it, or why it is switched off. */
export const BotTenantViewSchema = z.object({
  tenant: z.string(),
  enabled: z.boolean(),
  /** Why provisioning switched it off (missing scopes, feature disabled); null while it runs. */
  reason: z.string().nullable(),
  /** False before provisioning answered for this tenant (the runtime is starting). */
  provisioned: z.boolean(),
  botUserId: z.number().nullable(),
  webhookId: z.number().nullable(),
  /** Incoming webhook ids by target name (ids only: a webhook's URL carries its token). */
  incoming: z.record(z.string(), z.number()),
  /** Paused by an operator (`intrabot bots pause`, the console): why and since when; null while it runs. */
  paused: z.object({ reason: z.string().nullable(), since: Ms }).nullable(),
});

export const BotViewSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  /** One line on what it does: bot.yaml's `description`, else a summary of its commands, events, jobs and alert inputs. */
  description: z.string(),
  /** `post.created`, `comment.created (walls 3, 4)` */
  events: z.array(z.string()),
  schedules: z.array(z.object({ job: z.string(), cron: z.string(), timezone: z.string().nullable() })),
  commands: z.array(z.string()),
  alertInputs: z.array(z.string()),
  reports: z.array(z.string()),
  /** Target names with their kind (`wall`, `incoming`, `incoming_webhook`, ...). */
  targets: z.array(z.object({ name: z.string(), kind: z.string() })),
  warnings: z.array(z.string()),
  tenants: z.array(BotTenantViewSchema),
});
export type BotView = z.infer<typeof BotViewSchema>;

/** A bot folder that did not load, and why; the other bots run. */
export const FailedBotViewSchema = z.object({ dir: z.string(), name: z.string().nullable(), error: z.string() });

/**
 * Start-up provisioning while it runs (as `/readyz` says it): bots done of all, and the seconds left of a
 * wait for the rate budget; the console shows it so a slow start is not a silent one.
 */
export const StartingViewSchema = z.object({ done: z.number(), total: z.number(), waiting_s: z.number().optional() });
export type StartingView = z.infer<typeof StartingViewSchema>;

export const BotsViewSchema = z.object({
  now: Ms,
  mode: z.enum(['sandbox', 'connected']),
  tenants: z.array(z.object({ id: z.string(), timezone: z.string() })),
  bots: z.array(BotViewSchema),
  failed: z.array(FailedBotViewSchema),
  /** Null once the runtime has provisioned every tenant (or while it waits for another replica to). */
  provisioning: StartingViewSchema.nullable(),
});
export type BotsView = z.infer<typeof BotsViewSchema>;

/**
 * One delivery to one bot. From the inbox: `waiting` (received, not yet taken), `in progress`,
 * `retrying` (an attempt failed: `detail` is its error) and `dead` (failed for good: `detail` is the
 * reason, `entryId` replays it). From the recent history: `handled` (`detail` says what ran) and
 * `ignored` (`detail` says why).
 */
export const DeliveryStatusSchema = z.enum(['waiting', 'in progress', 'retrying', 'dead', 'handled', 'ignored']);
export type DeliveryStatus = z.infer<typeof DeliveryStatusSchema>;

/** One message a handled delivery's handler queued: its kind, where it goes (`post 7`, `wall 3`) and what it says. */
export const SentMessageViewSchema = z.object({ kind: z.string(), to: z.string(), text: z.string() });
export type SentMessageView = z.infer<typeof SentMessageViewSchema>;

export const DeliveryRowSchema = z.object({
  deliveryId: z.string(),
  /** The inbox entry (live and dead deliveries): what replay takes. */
  entryId: z.string().nullable(),
  tenant: z.string(),
  bot: z.string(),
  event: z.string(),
  status: DeliveryStatusSchema,
  detail: z.string().nullable(),
  attempts: z.number().nullable(),
  /** When the runtime accepted it (inbox entries). */
  receivedAt: Ms.nullable(),
  /** The latest thing that happened to it: received, retried, dead-lettered or handled. */
  at: Ms,
  /** Not tried again before this (a retrying delivery). */
  nextAttemptAt: Ms.nullable(),
  durationMs: z.number().nullable(),
  recovered: z.boolean(),
  /** What its handler queued (handled deliveries; empty for the others). */
  sends: z.array(SentMessageViewSchema),
});
export type DeliveryRow = z.infer<typeof DeliveryRowSchema>;

export const DeliveryQuerySchema = z.strictObject({
  bot: z.string().min(1).optional(),
  tenant: z.string().min(1).optional(),
  status: DeliveryStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1_000).default(200),
});
export type DeliveryQuery = z.infer<typeof DeliveryQuerySchema>;

const DeliveryCountsSchema = z.record(DeliveryStatusSchema, z.number());

export const DeliveriesViewSchema = z.object({
  now: Ms,
  rows: z.array(DeliveryRowSchema),
  counts: DeliveryCountsSchema,
  /** The same counts per bot (of the bots that have deliveries listed). */
  perBot: z.record(z.string(), DeliveryCountsSchema),
});
export type DeliveriesView = z.infer<typeof DeliveriesViewSchema>;

/** `queued` (waiting its turn or its time), `in flight` (being sent), `retrying` (an attempt failed), `dead`. */
export const OutboxStatusSchema = z.enum(['queued', 'in flight', 'retrying', 'dead']);
export type OutboxStatus = z.infer<typeof OutboxStatusSchema>;

/** A storm merged into digests: the head entry sends `parts`, `members` entries were absorbed. */
export const DigestViewSchema = z.object({ entryId: z.string(), target: z.string(), parts: z.number(), sent: z.number(), members: z.number() });
export type DigestView = z.infer<typeof DigestViewSchema>;

export const OutboxRowSchema = z.object({
  id: z.string(),
  target: z.string(),
  tenant: z.string().nullable(),
  kind: z.string(),
  /** The start of the message's text, cut short, on one line. */
  summary: z.string(),
  /** What it says, as written (a post's or comment's body, a message's text), up to 2,000 characters. */
  text: z.string(),
  status: OutboxStatusSchema,
  attempts: z.number(),
  lastError: z.string().nullable(),
  deadReason: z.string().nullable(),
  enqueuedAt: Ms,
  /** Not sent before this. */
  notBefore: Ms,
  /** No retry past this (null when unreadable). */
  deadlineAt: Ms.nullable(),
  /** Queued by an alert input. */
  fromAlerts: z.boolean(),
  digest: DigestViewSchema.nullable(),
});
export type OutboxRow = z.infer<typeof OutboxRowSchema>;

export const OutboxQuerySchema = z.strictObject({
  status: OutboxStatusSchema.optional(),
  target: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(1_000).default(200),
});
export type OutboxQuery = z.infer<typeof OutboxQuerySchema>;

export const OutboxViewSchema = z.object({
  now: Ms,
  rows: z.array(OutboxRowSchema),
  counts: z.record(OutboxStatusSchema, z.number()),
  digests: z.array(DigestViewSchema),
});
export type OutboxView = z.infer<typeof OutboxViewSchema>;

/** One point of a budget's history: the least remaining seen in a bucket, and the requests sent in it. */
export const RateSampleSchema = z.object({ at: Ms, remaining: z.number(), limit: z.number(), requests: z.number(), throttled: z.number() });
export type RateSample = z.infer<typeof RateSampleSchema>;

/** One rate budget (spec: Limits: 60 requests per minute per token and per incoming webhook). */
export const RateBudgetEntrySchema = z.object({
  /** An opaque id (a hash; never the token or the webhook's URL). */
  id: z.string(),
  kind: z.enum(['token', 'incoming', 'other']),
  label: z.string(),
  tenant: z.string().nullable(),
  /** As the platform last said (`X-RateLimit-*`); null before any answer. */
  limit: z.number().nullable(),
  remaining: z.number().nullable(),
  resetAt: Ms.nullable(),
  observedAt: Ms.nullable(),
  /** Requests this process sent under the budget, and 429s it got, in the last minute. */
  requestsLastMinute: z.number(),
  throttledLastMinute: z.number(),
  samples: z.array(RateSampleSchema),
});
export type RateBudgetEntry = z.infer<typeof RateBudgetEntrySchema>;

export const RateBudgetViewSchema = z.object({
  now: Ms,
  /** The span of one sample, and of the whole history. */
  bucketMs: z.number(),
  spanMs: z.number(),
  budgets: z.array(RateBudgetEntrySchema),
});
export type RateBudgetView = z.infer<typeof RateBudgetViewSchema>;

export const JobRowSchema = z.object({
  tenant: z.string(),
  bot: z.string(),
  job: z.string(),
  cron: z.string(),
  timezone: z.string(),
  nextSlot: Ms.nullable(),
  running: z.boolean(),
  lastRuns: z.array(RunRecordSchema),
});
export type JobRow = z.infer<typeof JobRowSchema>;

export const JobsViewSchema = z.object({ now: Ms, jobs: z.array(JobRowSchema) });
export type JobsView = z.infer<typeof JobsViewSchema>;

/** One request to an alert input and what came of it. */
export const AlertNotificationSchema = z.object({
  at: Ms,
  tenant: z.string(),
  bot: z.string(),
  input: z.string(),
  status: z.number(),
  /** Alerts in the notification and messages queued for them (202 answers). */
  accepted: z.number().nullable(),
  queued: z.number().nullable(),
  /** The error code of a refusal (`unauthorized`, `invalid_input`, `alerts_not_queued`...). */
  error: z.string().nullable(),
  message: z.string().nullable(),
});
export type AlertNotification = z.infer<typeof AlertNotificationSchema>;

export const AlertInputViewSchema = z.object({
  tenant: z.string(),
  bot: z.string(),
  input: z.string(),
  format: z.string(),
  /** Where monitoring tools post (relative to the runtime's URL). */
  path: z.string(),
  /** The kind of credential, never its value. */
  auth: z.enum(['bearer', 'basic', 'query_token', 'signature']),
  targets: z.array(z.string()),
  /** Notifications answered since the runtime started: accepted, refused (401), failed (other). */
  counts: z.object({ accepted: z.number(), refused: z.number(), failed: z.number() }),
  last: AlertNotificationSchema.nullable(),
});
export type AlertInputView = z.infer<typeof AlertInputViewSchema>;

export const AlertsViewSchema = z.object({
  now: Ms,
  inputs: z.array(AlertInputViewSchema),
  /** The last notifications, newest first (this process's, since it started). */
  recent: z.array(AlertNotificationSchema),
  /** Alert messages still in the outbox (queued, retrying or dead). */
  messages: z.array(OutboxRowSchema),
  /** Storms being sent as digests. */
  digests: z.array(DigestViewSchema),
});
export type AlertsView = z.infer<typeof AlertsViewSchema>;

/** The answer to "run now": started; its outcome shows in the job's last runs. */
export const JobStartedSchema = z.object({ started: z.literal(true), tenant: z.string(), bot: z.string(), job: z.string() });
export type JobStarted = z.infer<typeof JobStartedSchema>;

/** The sections the live stream carries, by name. */
export const CONSOLE_SECTIONS = ['bots', 'deliveries', 'outbox', 'rate', 'jobs', 'alerts', 'audit'] as const;
export type ConsoleSection = (typeof CONSOLE_SECTIONS)[number];
