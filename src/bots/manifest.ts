import { z } from 'zod';
import { OnCallSchema } from './manifest-oncall';
import { EventSubscriptionSchema, ScheduleSchema, SlugSchema, isPlainObject, oneOfKeys } from './manifest-parts';
import { TargetSchema } from './manifest-targets';

/** How an alert input authenticates the monitoring tool that calls it. */
export const AlertAuthSchema = oneOfKeys(
  {
    bearer: z.strictObject({ bearer: z.string().min(1) }),
    basic: z.strictObject({ basic: z.strictObject({ username: z.string().min(1), password: z.string().min(1) }) }),
    query_token: z.strictObject({ query_token: z.string().min(1) }),
  },
  'auth',
);

/**
 * The secret a source signs its webhooks with (Grafana's HMAC signature, Sentry's client secret): the
 * input then also refuses a body whose signature does not verify. `timestamp_header`: the header Grafana
 * is configured to send the signing time in (it is signed with the body, and must be recent).
 */
export const AlertSigningSchema = z.strictObject({
  secret: z.string().min(1),
  /**
   * How the sender signs, when the format does not say: a `generic` input fed by GitHub or GitLab (their
   * `release` events, say) checks their signature with `scheme: github` or `gitlab`.
   */
  scheme: z.enum(['grafana', 'sentry', 'github', 'gitlab']).optional(),
  timestamp_header: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'expected a header name')
    .optional(),
});

/**
 * The payload dialects an alert input understands; one adapter each in `src/alerts/adapters/`
 * (the cloud and CI sources are presets of `generic` named as formats: `SOURCE_PRESETS`; `sns` has its own).
 */
export const ALERT_FORMATS = [
  'alertmanager',
  'grafana',
  'slack',
  'generic',
  'azure-monitor',
  'gcp-monitoring',
  'formatted-webhook',
  'github',
  'gitlab',
  'jenkins',
  'zabbix',
  'sns',
] as const;

/** Sends alerts whose labels all match to other targets than the input's default ones. */
export const AlertRouteSchema = z.strictObject({
  match: z.record(z.string(), z.string()),
  targets: z.array(SlugSchema).min(1),
  /** A team of the input's `oncall`: the messages of the alerts this rule routes name who is on call for it. */
  oncall: SlugSchema.optional(),
});

/**
 * One alert input: `POST /alerts/:bot/:input`. `options` carries adapter-specific settings, so a
 * new format needs no change to this schema.
 */
export const AlertInputSchema = z.strictObject({
  input: SlugSchema,
  format: z.enum(ALERT_FORMATS),
  /** The tool's credential; may be left out when `signing` checks the sender (GitHub, GitLab sign and send no other), and for `sns`, whose messages are signed by AWS. */
  auth: AlertAuthSchema.optional(),
  signing: AlertSigningSchema.optional(),
  targets: z.array(SlugSchema).min(1).optional(),
  template: z.string().min(1).optional(),
  route: z.array(AlertRouteSchema).optional(),
  /** Who is on call, by team (`{ person }` or `{ rota, every, from }`), for the routes that name one. */
  oncall: z.record(SlugSchema, OnCallSchema).optional(),
  options: z.record(z.string(), z.unknown()).optional(),
});

export const ReportSubscriptionSchema = z.strictObject({
  report: z.string().regex(/^[a-z_]+\.[a-z_]+$/, 'expected a report event name such as todoliststats.daily'),
  secret: z.string().min(1),
});

/** The fields a tenant's `overrides` entry may change. */
const tenantFields = {
  events: z.array(EventSubscriptionSchema),
  schedules: z.array(ScheduleSchema),
  alerts: z.array(AlertInputSchema),
  reports: z.array(ReportSubscriptionSchema),
  targets: z.record(SlugSchema, TargetSchema),
  reply: z.enum(['comment', 'post', 'dm']),
  react_to_bots: z.boolean(),
  config: z.record(z.string(), z.unknown()),
};

export const ManifestOverrideSchema = z.strictObject(tenantFields).partial();

export type ManifestOverride = z.output<typeof ManifestOverrideSchema>;

/**
 * `bots/<name>/bot.yaml`. String values may use `${env:NAME}` / `${env:NAME:-default}`.
 *
 * @example
 * name: kudos
 * display_name: Kudos Bot
 * events: [post.created, { event: comment.created, walls: [3] }]
 * schedules: [{ job: digest, cron: "0 9 * * MON", timezone: Europe/Berlin, catch_up: 1h }]
 * targets: { team: { wall: "Engineering" } }
 * config: { greeting: "Congratulations" }
 */
export const BotManifestSchema = z
  .strictObject({
    name: SlugSchema,
    display_name: z.string().min(1).max(100),
    avatar_url: z.url({ protocol: /^https?$/ }).optional(),
    /** One line on what the bot does, for people: the console shows it on the bot's card. */
    description: z.string().trim().min(1).max(200).optional(),
    events: tenantFields.events.default([]),
    schedules: tenantFields.schedules.default([]),
    alerts: tenantFields.alerts.default([]),
    reports: tenantFields.reports.default([]),
    targets: tenantFields.targets.default({}),
    /** How `ctx.reply` answers an event or command: a comment under the post (default), a post, a DM. */
    reply: tenantFields.reply.default('comment'),
    /** A bot never reacts to other bots' posts unless it sets this (no reply loops). */
    react_to_bots: tenantFields.react_to_bots.default(false),
    /** Checked later by the bot's own `config` schema from `defineBot`. */
    config: tenantFields.config.default({}),
    /**
     * Scopes the bot's code needs beyond what the manifest implies (its `ctx.api` calls, awards,
     * direct messages...): checked against the token at provisioning, like the derived ones.
     */
    scopes: z.array(z.string().regex(/^(read|write):[a-z_]+$/, 'expected a scope such as read:users or write:achievements')).default([]),
    /**
     * An example bot (the ones in intrabot's own `bots/`): it runs in sandbox mode, but in connected
     * mode only when enabled by name (`INTRABOT_BOTS`, or `bots:` in `intrabot.yaml`).
     */
    example: z.boolean().default(false),
    /** Deploy only to these tenants; every tenant when absent. */
    tenants: z.array(z.string().min(1)).min(1).optional(),
    overrides: z.record(z.string().min(1), ManifestOverrideSchema).default({}),
  })
  .superRefine(checkReferences);

export type BotManifest = z.output<typeof BotManifestSchema>;

type ManifestShape = Pick<BotManifest, 'alerts' | 'targets' | 'schedules' | 'tenants' | 'overrides'>;

/** Names used in one place must be defined in another: alert targets, unique inputs, tenants. */
function checkReferences(manifest: ManifestShape, ctx: z.RefinementCtx): void {
  const seenInputs = new Set<string>();
  manifest.alerts.forEach((alert, i) => {
    if (seenInputs.has(alert.input)) ctx.addIssue({ code: 'custom', path: ['alerts', i, 'input'], message: `alert input "${alert.input}" is defined twice` });
    seenInputs.add(alert.input);
    alert.targets?.forEach((name, j) => checkTarget(manifest, name, ['alerts', i, 'targets', j], ctx));
    alert.route?.forEach((route, r) => route.targets.forEach((name, j) => checkTarget(manifest, name, ['alerts', i, 'route', r, 'targets', j], ctx)));
  });
  for (const [tenant, override] of Object.entries(manifest.overrides)) {
    if (manifest.tenants && !manifest.tenants.includes(tenant)) {
      ctx.addIssue({ code: 'custom', path: ['overrides', tenant], message: `tenant "${tenant}" is not among this bot's tenants` });
    }
    const merged = { ...manifest, targets: { ...manifest.targets, ...override.targets } };
    override.alerts?.forEach((alert, i) =>
      alert.targets?.forEach((name, j) => checkTarget(merged, name, ['overrides', tenant, 'alerts', i, 'targets', j], ctx)),
    );
  }
}

function checkTarget(manifest: ManifestShape, name: string, path: (string | number)[], ctx: z.RefinementCtx): void {
  const known = Object.keys(manifest.targets);
  if (known.includes(name)) return;
  const listed = known.length ? `defined targets: ${known.join(', ')}` : 'no targets are defined';
  ctx.addIssue({ code: 'custom', path, message: `unknown target "${name}" (${listed})` });
}

/** Whether a bot deploys to a tenant. */
export function deploysTo(manifest: BotManifest, tenantId: string): boolean {
  return manifest.tenants === undefined || manifest.tenants.includes(tenantId);
}

/**
 * The manifest as one tenant sees it: the tenant's `overrides` replace lists and values, while
 * `targets` merge by name and `config` merges deeply.
 */
export function manifestForTenant(manifest: BotManifest, tenantId: string): BotManifest {
  const override = manifest.overrides[tenantId];
  if (!override) return manifest;
  const { targets, config, ...rest } = override;
  return {
    ...manifest,
    ...rest,
    targets: { ...manifest.targets, ...targets },
    config: deepMerge(manifest.config, config ?? {}),
  };
}

/** `over` merged into `base`: nested objects merge key by key, anything else in `over` replaces. */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}
