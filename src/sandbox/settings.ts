import { z } from 'zod';

/** What `PUT /_sandbox/settings` can change; the platform sets these per customer server. */
export const SandboxSettingsSchema = z.object({
  rate_limit_per_minute: z.number().int().min(1).max(100_000).default(60),
  achievements_enabled: z.boolean().default(true),
  /** Whether the company has its own user (`type: customer`); without one, awards are assigned by the system user. */
  company_user: z.boolean().default(true),
  /** spec: Outgoing reports run on CET; the customer server's zone also dates awards. */
  timezone: z.string().default('Europe/Berlin'),
  /** spec: Events, envelope `customer`. */
  customer: z.string().default('sandbox'),
});
export type SandboxSettings = z.infer<typeof SandboxSettingsSchema>;

export const SandboxSettingsPatchSchema = SandboxSettingsSchema.partial().strict();
