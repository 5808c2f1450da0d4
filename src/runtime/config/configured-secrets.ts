import { z } from 'zod';
import { ConfigError } from '../../errors';

/** The shortest signing secret accepted from configuration (the platform issues far longer ones). */
export const MIN_SECRET_LENGTH = 16;

const botName = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be a bot name: lowercase letters, digits and dashes');
const secret = z.string().min(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`);

/**
 * A tenant's `webhook_secrets`: per bot, the signing secrets of endpoints managed outside intrabot (made
 * in the platform's admin interface, or by another tool that rotates them). A delivery signed with any of
 * them is accepted, beside the secret of the endpoint intrabot provisioned.
 *
 * @example { kudos: ['3f9c…', '8a21…'] }
 */
export const WebhookSecretsSchema = z.record(botName, z.array(secret).min(1, 'give at least one secret, or leave the bot out'));
export type WebhookSecrets = z.infer<typeof WebhookSecretsSchema>;

export const WEBHOOK_SECRETS_ENV = 'INTRABOT_WEBHOOK_SECRETS';

/**
 * `INTRABOT_WEBHOOK_SECRETS=kudos:<secret>,kudos:<other>,alerts:<secret>`: the environment's tenant's
 * (`default`, or `sandbox` in sandbox mode) configured secrets. Errors name the variable and the entry's
 * position, never a secret.
 */
export function webhookSecretsFromEnv(value: string | undefined): WebhookSecrets | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const out: Record<string, string[]> = {};
  value.split(',').forEach((raw, index) => {
    const entry = raw.trim();
    const at = entry.indexOf(':');
    const where = `${WEBHOOK_SECRETS_ENV}: entry ${index + 1}`;
    if (at <= 0) throw new ConfigError(WEBHOOK_SECRETS_ENV, `${where}: must be <bot>:<secret> (entries separated by commas)`);
    const bot = entry.slice(0, at);
    const given = entry.slice(at + 1);
    const name = botName.safeParse(bot);
    if (!name.success) throw new ConfigError(WEBHOOK_SECRETS_ENV, `${where}: the bot ${name.error.issues[0]?.message ?? 'is invalid'}`);
    const checked = secret.safeParse(given);
    if (!checked.success) throw new ConfigError(WEBHOOK_SECRETS_ENV, `${where}: the secret ${checked.error.issues[0]?.message ?? 'is invalid'}`);
    (out[bot] ??= []).push(given);
  });
  return out;
}

/**
 * Adds the environment's secrets to the tenant the environment configures (the first one, when it is
 * `default` or `sandbox`); with only file tenants the variable has no tenant to go to, and says so.
 */
export function applyEnvWebhookSecrets(tenants: unknown[], value: string | undefined): void {
  const fromEnv = webhookSecretsFromEnv(value);
  if (!fromEnv) return;
  const first = tenants[0] as Record<string, unknown> | undefined;
  if (!first || (first.id !== 'default' && first.id !== 'sandbox')) {
    throw new ConfigError(
      WEBHOOK_SECRETS_ENV,
      `${WEBHOOK_SECRETS_ENV} applies to the tenant INTRABOT_BASE_URL configures (or the sandbox); for a tenant of intrabot.yaml give its webhook_secrets there`,
    );
  }
  const merged: Record<string, string[]> = { ...((first.webhook_secrets as Record<string, string[]> | undefined) ?? {}) };
  for (const [bot, secrets] of Object.entries(fromEnv)) merged[bot] = [...(merged[bot] ?? []), ...secrets];
  first.webhook_secrets = merged;
}
