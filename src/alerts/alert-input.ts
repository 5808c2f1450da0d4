import { z } from 'zod';
import type { BotManifest } from '../bots/manifest';
import { DurationSchema } from '../bots/manifest-parts';
import { ConfigError, InvalidInputError } from '../errors';
import { parseOrThrow } from '../validation';
import type { AlertFormat } from './adapters/parse-alerts';
import { GenericMappingSchema, type GenericMappingInput } from './adapters/generic-mapping';
import { GENERIC_PRESETS } from './adapters/generic-presets';
import type { AlertInputAuth } from './input-auth';
import { signatureSchemeOf, type AlertSigning, type SignatureSchemeName } from './input-signature';
import { compileRouting, type CompiledRouting } from './routing';
import type { OnCall } from '../bots/manifest-oncall';
import type { SnsInputSettings } from './sns/sns-receiver';

/** The longest post body the default split aims for (the spec shows no maximum: "not shown"). */
export const DEFAULT_ALERT_MAX_LENGTH = 4000;
/** Above this many alerts in one message, the `alerts/digest` template lists them one per line. */
export const DEFAULT_DIGEST_OVER = 10;
/** How long an alert not mentioned is remembered, unless the input says otherwise. */
export const DEFAULT_DEDUPE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * How long a Slack-style alert is remembered after it was last seen. Those tools send one message
 * per event, never a resolution: a long window would swallow a failure that recurs every day.
 */
export const SLACK_DEDUPE_WINDOW_MS = 60 * 60 * 1000;
/** The credential `sandbox.env` gives the example alerts bot; refused in connected mode. */
export const SANDBOX_ALERT_TOKEN = 'sandbox-alert-token';

/**
 * The adapter-specific `options:` of an alert input in `bot.yaml`:
 * - `mapping`: for `format: generic`, a preset name (one of `GENERIC_PRESETS`: `uptime-kuma`,
 *   `sentry`, `datadog`, `healthchecks`, ...) or a mapping object (see `GenericMappingSchema`);
 * - `max_length`: the longest message; longer ones are split in numbered parts, never truncated;
 * - `digest_over`: more alerts than this in one message are listed one line each;
 * - `dedupe_window`: how long an unchanged alert is not posted again after it was last seen
 *   (`1h`, `2d`); default 7 days, and 1 hour for `format: slack`;
 * - `topics`: for `format: sns`, the ARNs of the SNS topics whose messages the input accepts (and
 *   whose subscriptions it confirms); a message from any other topic is refused.
 */
export const AlertInputOptionsSchema = z.looseObject({
  mapping: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
  max_length: z.int().min(200).optional(),
  digest_over: z.int().positive().optional(),
  dedupe_window: DurationSchema.optional(),
  topics: z
    .array(z.string().regex(/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w.-]+$/, 'expected an SNS topic ARN such as arn:aws:sns:eu-west-1:123456789012:alerts'))
    .min(1)
    .optional(),
});

/** One alert input, ready for the route: what `resolveInput(bot, input, tenant)` answers. */
export interface ResolvedAlertInput {
  bot: string;
  input: string;
  format: AlertFormat;
  /** The credential checked before the body is read; absent when only the signature checks the sender. */
  auth?: AlertInputAuth;
  /** The senders' signature, checked over the raw body before it is parsed (`signing:` with a scheme the source has). */
  signature?: { scheme: SignatureSchemeName; signing: AlertSigning };
  mapping?: GenericMappingInput | string;
  /** For `format: sns`: the topics it accepts; its messages are checked by their AWS signature, not by `signature`. */
  sns?: SnsInputSettings;
  /** Label rules to target names; its `default` (or else `targets`) takes what no rule matched. */
  routing: CompiledRouting;
  /** Who is on call, by team, for the rules that name one (`onCallTeamOf`). */
  oncall?: Record<string, OnCall>;
  targets: string[];
  /** A template base replacing `alerts`: renders `<template>/firing`, `/resolved`, `/digest`. */
  template?: string;
  maxLength: number;
  digestOver?: number;
  /** Forget an alert not seen for this long (default `DEFAULT_DEDUPE_WINDOW_MS`). */
  dedupeWindowMs?: number;
}

type InputOf = BotManifest['alerts'][number];

/**
 * The route's view of one alert input of a (tenant's) manifest; undefined when the bot has no
 * such input. Throws `ConfigError` for options that cannot work (run `validateAlertInputs` at load
 * so that this never happens on a request).
 *
 * @example
 * resolveInput: (bot, input, tenant) => alertInputFromManifest(manifestForTenant(manifests[bot], tenant), input)
 */
export function alertInputFromManifest(manifest: BotManifest, name: string, defaults: { maxLength?: number } = {}): ResolvedAlertInput | undefined {
  const index = manifest.alerts.findIndex((entry) => entry.input === name);
  const input = manifest.alerts[index];
  if (!input) return undefined;
  const where = `alerts.${index}`;
  const options = asConfig(`${where}.options`, () => parseOrThrow(AlertInputOptionsSchema, input.options ?? {}, `${where}.options`));
  const targets = defaultTargets(manifest, input);
  const routing = asConfig(`${where}.route`, () =>
    compileRouting({
      routes: (input.route ?? []).map((rule) => ({ match: rule.match, targets: rule.targets, ...(rule.oncall === undefined ? {} : { oncall: rule.oncall }) })),
      default: targets,
    }),
  );
  checkOnCallTeams(input, where);
  return {
    bot: manifest.name,
    input: input.input,
    format: input.format,
    ...(input.auth !== undefined && { auth: input.auth }),
    ...signatureOf(input, options.mapping),
    ...(options.mapping !== undefined && { mapping: options.mapping as GenericMappingInput | string }),
    ...(input.format === 'sns' && { sns: { topics: options.topics ?? [], key: `${where}.options.topics` } }),
    routing,
    ...(input.oncall !== undefined && { oncall: input.oncall }),
    targets,
    ...(input.template !== undefined && { template: input.template }),
    maxLength: options.max_length ?? defaults.maxLength ?? DEFAULT_ALERT_MAX_LENGTH,
    ...(options.digest_over !== undefined && { digestOver: options.digest_over }),
    ...dedupeWindowOf(input.format, options.dedupe_window),
  };
}

/**
 * Checks every alert input of a manifest at load, naming the input of the first problem: each needs
 * a credential (in connected mode the sandbox's well-known token does not count), somewhere to send
 * alerts no route matches, and options that work (a generic input needs a `mapping`).
 *
 * @example validateAlertInputs(manifest, config.mode) // throws ConfigError 'alert input "grafana" of bot "alerts" has no credential...'
 */
export function validateAlertInputs(manifest: BotManifest, mode: 'sandbox' | 'connected'): void {
  manifest.alerts.forEach((input, index) => {
    const where = `alerts.${index}`;
    const label = `alert input "${input.input}" of bot "${manifest.name}" (${where})`;
    const secret = credentialOf(input.auth as AlertInputAuth | undefined);
    // an SNS message is signed by AWS, and checked against the input's topics: no credential is needed
    if (!secret && !input.signing && input.format !== 'sns') {
      throw new ConfigError(
        `${where}.auth`,
        `${label} has no credential: set auth to { bearer }, { basic: { username, password } } or { query_token }, or signing: { secret } for a source that signs`,
      );
    }
    if (mode === 'connected' && (secret ?? '').includes(SANDBOX_ALERT_TOKEN)) {
      throw new ConfigError(`${where}.auth`, `${label} uses the sandbox credential, which connected mode does not accept: configure a secret of your own`);
    }
    if (mode === 'connected' && (input.signing?.secret ?? '').includes(SANDBOX_ALERT_TOKEN)) {
      throw new ConfigError(`${where}.signing`, `${label} signs with the sandbox secret, which connected mode does not accept: configure a secret of your own`);
    }
    if (defaultTargets(manifest, input).length === 0 && !input.route?.length) {
      throw new ConfigError(`${where}.targets`, `${label} has no targets: name where its alerts go (targets: [...])`);
    }
    if (input.format === 'generic') checkMapping(input.options?.mapping, `${where}.options.mapping`, label);
    if (input.format === 'sns') checkSns(input, where, label);
    if (input.signing && signatureSchemeOf(input.format, input.options?.mapping, input.signing.scheme) === undefined) {
      throw new ConfigError(
        `${where}.signing`,
        `${label}: its source signs nothing intrabot can check (signing works with formats grafana, github and gitlab, the sentry mapping, and a generic input's signing.scheme)`,
      );
    }
    alertInputFromManifest(manifest, input.input);
  });
}

/** An SNS input names the topics it accepts; AWS signs its messages, so it has no `signing` secret. */
/** Every team a route names is one the input's `oncall` has. */
function checkOnCallTeams(input: InputOf, where: string): void {
  (input.route ?? []).forEach((rule, index) => {
    if (rule.oncall === undefined || input.oncall?.[rule.oncall] !== undefined) return;
    const known = Object.keys(input.oncall ?? {});
    throw new ConfigError(
      `${where}.route.${index}.oncall`,
      `${where}.route.${index}.oncall: no team "${rule.oncall}" in ${where}.oncall (${known.length > 0 ? `it has ${known.join(', ')}` : 'the input has no oncall'})`,
    );
  });
}

function checkSns(input: InputOf, where: string, label: string): void {
  if (input.options?.topics === undefined) {
    throw new ConfigError(
      `${where}.options.topics`,
      `${label} has format sns but no options.topics: list the ARNs of the SNS topics it accepts (arn:aws:sns:<region>:<account>:<topic>)`,
    );
  }
  if (input.signing) {
    throw new ConfigError(`${where}.signing`, `${label}: SNS messages are checked by AWS's signature and certificate, with no secret: leave out signing`);
  }
}

/** A generic input's mapping: a known preset name or a mapping the schema accepts. */
function checkMapping(mapping: unknown, key: string, label: string): void {
  if (mapping === undefined) throw new ConfigError(key, `${label} has format generic but no options.mapping (a preset name or a mapping)`);
  if (typeof mapping === 'string') {
    if (Object.hasOwn(GENERIC_PRESETS, mapping)) return;
    throw new ConfigError(key, `${label}: unknown mapping preset "${mapping}" (known: ${Object.keys(GENERIC_PRESETS).join(', ')})`);
  }
  asConfig(key, () => parseOrThrow(GenericMappingSchema, mapping, key));
}

function signatureOf(input: InputOf, mapping: unknown): Pick<ResolvedAlertInput, 'signature'> {
  const scheme = signatureSchemeOf(input.format, mapping, input.signing?.scheme);
  return input.signing && scheme ? { signature: { scheme, signing: input.signing } } : {};
}

function dedupeWindowOf(format: AlertFormat, configured: number | undefined): { dedupeWindowMs?: number } {
  if (configured !== undefined) return { dedupeWindowMs: configured };
  return format === 'slack' ? { dedupeWindowMs: SLACK_DEDUPE_WINDOW_MS } : {};
}

/** An input's own targets, or the bot's only target when it has exactly one. */
function defaultTargets(manifest: BotManifest, input: InputOf): string[] {
  if (input.targets) return [...input.targets];
  const names = Object.keys(manifest.targets);
  return names.length === 1 ? names : [];
}

function credentialOf(auth: AlertInputAuth | undefined): string | undefined {
  if (!auth || typeof auth !== 'object') return undefined;
  if ('bearer' in auth) return auth.bearer || undefined;
  if ('basic' in auth) return auth.basic?.username && auth.basic.password ? `${auth.basic.username}:${auth.basic.password}` : undefined;
  if ('query_token' in auth) return auth.query_token || undefined;
  return undefined;
}

function asConfig<T>(key: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof InvalidInputError) throw new ConfigError(key, error.message, { cause: error });
    throw error;
  }
}
