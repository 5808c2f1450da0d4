import { z } from 'intrabot';
import { AlertmanagerSilences, silenceDurationMs } from 'intrabot/helpers';

/**
 * `silence_on_ack`: an acknowledgement under a post of these inputs also silences its group in
 * Alertmanager, until its alerts resolve (at most `for`). Alertmanager sends no resolution of a
 * silenced alert, so the `watch-silences` job asks it whether they still fire, and resolves the post
 * and ends the silence when none does.
 */
export const SilenceOnAckSchema = z
  .object({
    /** Alert inputs fed by an Alertmanager (`alertmanagers.<input>`, else the bot's `alertmanager`); empty: an ack silences nothing. */
    inputs: z.array(z.string().min(1)).default([]),
    /** The longest an ack's silence lasts, if the alerts never resolve (or the watch job cannot reach Alertmanager). */
    for: z
      .string()
      .refine((text) => silenceDurationMs(text) !== undefined, { error: 'expected a duration such as 4h, 1d or 1h30m' })
      .default('24h'),
  })
  .default({ inputs: [], for: '24h' });

/** Where the silence commands reach Alertmanager: one for the bot, and one per input that differs. */
export const SilencesConfigSchema = z.object({
  /** The bot's Alertmanager (empty `url`: the silence commands say how to set one). */
  alertmanager: z.object({ url: z.string().default(''), bearer: z.string().default('') }).default({ url: '', bearer: '' }),
  /** Per alert input, when its alerts come from another Alertmanager: `/silence --input=<name> ...`. */
  alertmanagers: z.record(z.string(), z.object({ url: z.string().min(1), bearer: z.string().default('') })).default({}),
  /** Acknowledging a post of these inputs silences its group until it resolves (ack-silence.ts). */
  silence_on_ack: SilenceOnAckSchema,
});
export type SilencesConfig = z.infer<typeof SilencesConfigSchema>;

/** Where the alerts of an input come from: `alertmanagers.<input>`, else the bot's Alertmanager; undefined when neither is set. */
export function alertmanagerConfigOf(config: SilencesConfig, input: string): { url: string; bearer: string } | undefined {
  const own = config.alertmanagers[input];
  if (own) return own;
  return config.alertmanager.url ? config.alertmanager : undefined;
}

export function silencesOf(config: { url: string; bearer: string }): AlertmanagerSilences {
  return new AlertmanagerSilences({ url: config.url, ...(config.bearer ? { bearer: config.bearer } : {}) });
}
