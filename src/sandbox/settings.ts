import { z } from 'zod';

/** Whether Intl knows the zone: every date the sandbox writes is formatted in it. */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The settings' fields, without defaults: a patch names only what it changes. */
const settingsFields = {
  rate_limit_per_minute: z.number().int().min(1).max(100_000),
  achievements_enabled: z.boolean(),
  /** Whether the company has its own user (`type: customer`); without one, awards are assigned by the system user. */
  company_user: z.boolean(),
  /** spec: Outgoing reports run on CET; the customer server's zone also dates awards. */
  timezone: z.string().refine(isTimeZone, { error: 'must be an IANA time zone such as Europe/Berlin' }),
  /** spec: Events, envelope `customer`. */
  customer: z.string(),
};

/** What `PUT /_sandbox/settings` can change; the platform sets these per customer server. */
export const SandboxSettingsSchema = z.object({
  rate_limit_per_minute: settingsFields.rate_limit_per_minute.default(60),
  achievements_enabled: settingsFields.achievements_enabled.default(true),
  company_user: settingsFields.company_user.default(true),
  timezone: settingsFields.timezone.default('Europe/Berlin'),
  customer: settingsFields.customer.default('sandbox'),
});
export type SandboxSettings = z.infer<typeof SandboxSettingsSchema>;

/**
 * The body of `PUT /_sandbox/settings`: the fields sent change, the others keep their value. Built
 * from the fields without defaults, since zod 4 fills a default in even inside `.partial()` (a
 * patch made from `SandboxSettingsSchema` would reset every field it was not sent).
 */
export const SandboxSettingsPatchSchema = z
  .object({
    rate_limit_per_minute: settingsFields.rate_limit_per_minute.optional(),
    achievements_enabled: settingsFields.achievements_enabled.optional(),
    company_user: settingsFields.company_user.optional(),
    timezone: settingsFields.timezone.optional(),
    customer: settingsFields.customer.optional(),
  })
  .strict();
export type SandboxSettingsPatch = z.infer<typeof SandboxSettingsPatchSchema>;
