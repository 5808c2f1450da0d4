import type { BotContext } from 'intrabot';
import {
  type AlertIncident,
  AlertmanagerError,
  type AlertmanagerSilences,
  alertIncident,
  formatSilenceMatcher,
  resolveAlertIncident,
  type SilenceMatcher,
  silenceDurationMs,
} from 'intrabot/helpers';
import { alertmanagerConfigOf, type SilencesConfig, silencesOf } from './config';

type Ctx = BotContext<SilencesConfig>;

/** Marks the silences an ack made, in their comment: the tenant and the post, which the watch job reads back. */
const MARK = /\[intrabot ack: tenant=(\S+) post=(\d+)\]$/;
const markOf = (tenant: string, postId: number) => `[intrabot ack: tenant=${tenant} post=${postId}]`;

/**
 * After the first acknowledgement of a post of a `silence_on_ack` input: silences its group in its
 * Alertmanager, made by the person who acknowledged, and answers how that went in a sentence for the
 * reply (undefined when nothing was to be silenced). Alertmanager's refusal is told, not thrown: the
 * acknowledgement stands.
 */
export async function silenceAcknowledged(ctx: Ctx, incident: AlertIncident, by: { name: string }): Promise<string | undefined> {
  const { inputs, for: longest } = ctx.config.silence_on_ack;
  if (!inputs.includes(incident.input) || incident.state !== 'firing') return undefined;
  const where = alertmanagerConfigOf(ctx.config, incident.input);
  const silences = where && silencesOf(where);
  const labels = Object.entries(incident.labels ?? {});
  if (!silences || labels.length === 0) return undefined;
  const matchers: SilenceMatcher[] = labels.map(([name, value]) => ({ name, value, isRegex: false, isEqual: true }));
  const startsAt = ctx.now();
  try {
    const id = await silences.create(
      {
        matchers,
        startsAt,
        endsAt: startsAt + silenceDurationMs(longest)!,
        createdBy: by.name,
        comment: `acknowledged on the intranet; ends when these alerts resolve ${markOf(ctx.tenant.id, incident.postId)}`,
      },
      ctx.signal,
    );
    ctx.log.info('acknowledged alerts silenced', { silence: id, post: incident.postId });
    return `🔕 Silenced ${matchers.map(formatSilenceMatcher).join(', ')} until they resolve (silence ${id}).`;
  } catch (error) {
    if (!(error instanceof AlertmanagerError)) throw error;
    ctx.log.warn('could not silence acknowledged alerts', { error: error.message });
    return `⚠️ Not silenced: ${error.message}.`;
  }
}

/**
 * The `watch-silences` job: for each silence an ack made on this tenant, still active, asks Alertmanager
 * whether its alerts still fire. When none does, the post is resolved (edited, and a comment under it)
 * and the silence expired; a post that resolved otherwise, or is gone, only has its silence expired.
 * An Alertmanager that does not answer is logged and asked again at the next run.
 */
export async function watchSilences(ctx: Ctx): Promise<void> {
  const { inputs } = ctx.config.silence_on_ack;
  const managers = new Map<string, AlertmanagerSilences>();
  for (const input of inputs) {
    const where = alertmanagerConfigOf(ctx.config, input);
    if (where && !managers.has(where.url)) managers.set(where.url, silencesOf(where));
  }
  for (const silences of managers.values()) {
    try {
      for (const silence of await silences.list(['active'], ctx.signal)) {
        const [, tenant, post] = MARK.exec(silence.comment) ?? [];
        if (tenant !== ctx.tenant.id || post === undefined) continue;
        await settle(ctx, silences, silence.id, silence.matchers, Number(post));
      }
    } catch (error) {
      if (!(error instanceof AlertmanagerError)) throw error;
      ctx.log.warn('could not watch the silences of acknowledged alerts', { error: error.message });
    }
  }
}

async function settle(ctx: Ctx, silences: AlertmanagerSilences, id: string, matchers: SilenceMatcher[], postId: number): Promise<void> {
  const incident = await alertIncident(ctx, postId);
  if (incident?.state === 'firing') {
    if ((await silences.firingCount(matchers, ctx.signal)) > 0) return;
    const resolved = await resolveAlertIncident(ctx, postId);
    if (resolved?.changed) await ctx.comment(postId, '✅ Resolved: Alertmanager lists none of these alerts any more (they resolved while silenced).');
  }
  await silences.expire(id, ctx.signal);
  ctx.log.info('silence of acknowledged alerts ended', { silence: id, post: postId });
}
