import type { BotContext, CommandInvocation } from 'intrabot';
import { AlertmanagerError, type AlertmanagerSilences, formatSilenceMatcher, parseSilenceRequest, type Silence } from 'intrabot/helpers';
import { type SilencesConfig, silencesOf } from './config';

type Ctx = BotContext<SilencesConfig>;

const NOT_SET = 'No Alertmanager is set for silences: set ALERTMANAGER_URL (and ALERTMANAGER_TOKEN if it needs one).';

/** `/silence <matchers> <duration> [comment]`: a silence in Alertmanager, made by the person who asked. */
export async function silence(cmd: CommandInvocation, ctx: Ctx): Promise<unknown> {
  const parsed = parseSilenceRequest(cmd.args);
  if (!parsed.ok) return ctx.reply(`Not silenced: ${parsed.problem}.\nUsage: /silence alertname=DiskFull instance=db-1 2h replacing the disk`);
  const { matchers, durationMs, comment } = parsed.request;
  const silences = alertmanagerFor(cmd, ctx);
  if (typeof silences === 'string') return ctx.reply(silences);
  const startsAt = ctx.now();
  const endsAt = startsAt + durationMs;
  const id = await askAlertmanager(ctx, () =>
    silences.create({ matchers, startsAt, endsAt, createdBy: cmd.user.name, comment: comment || `silenced from the intranet by ${cmd.user.name}` }, ctx.signal),
  );
  if (id === undefined) return;
  ctx.log.info('silence created', { silence: id, by: cmd.user.name });
  return ctx.reply(`🔕 Silenced ${matchers.map(formatSilenceMatcher).join(', ')} until ${timeOf(ctx, endsAt)} (silence ${id}).`);
}

/** `/silences`: the active and pending silences, soonest end first. */
export async function listSilences(cmd: CommandInvocation, ctx: Ctx): Promise<unknown> {
  const silences = alertmanagerFor(cmd, ctx);
  if (typeof silences === 'string') return ctx.reply(silences);
  const list = await askAlertmanager(ctx, () => silences.list(['active', 'pending'], ctx.signal));
  if (list === undefined) return;
  if (list.length === 0) return ctx.reply('No silences are active.');
  return ctx.reply([`${list.length} silence${list.length === 1 ? '' : 's'}:`, ...list.map((s) => describe(ctx, s))].join('\n'));
}

/** `/unsilence <id>`: expires a silence now. */
export async function unsilence(cmd: CommandInvocation, ctx: Ctx): Promise<unknown> {
  const id = cmd.args[0];
  if (!id) return ctx.reply('Usage: /unsilence <silence id> (see /silences)');
  const silences = alertmanagerFor(cmd, ctx);
  if (typeof silences === 'string') return ctx.reply(silences);
  const expired = await askAlertmanager(ctx, () => silences.expire(id, ctx.signal));
  if (expired === undefined) return;
  if (!expired) return ctx.reply(`Alertmanager knows no silence ${id} (see /silences).`);
  ctx.log.info('silence expired', { silence: id, by: cmd.user.name });
  return ctx.reply(`🔔 Silence ${id} expired: its alerts notify again.`);
}

/** The Alertmanager of `--input`, else the bot's; a reply text when there is none. */
function alertmanagerFor(cmd: CommandInvocation, ctx: Ctx): AlertmanagerSilences | string {
  const input = cmd.flags.input;
  if (typeof input === 'string') {
    const config = ctx.config.alertmanagers[input];
    if (!config) return `No Alertmanager is set for input "${input}" (known: ${Object.keys(ctx.config.alertmanagers).join(', ') || 'none'}).`;
    return silencesOf(config);
  }
  return ctx.config.alertmanager.url ? silencesOf(ctx.config.alertmanager) : NOT_SET;
}

/** Runs the call; Alertmanager's refusal or absence is answered to the person (safe text), and undefined returned. */
async function askAlertmanager<T>(ctx: Ctx, call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof AlertmanagerError)) throw error;
    ctx.log.warn('alertmanager call failed', { error: error.message });
    await ctx.reply(`⚠️ ${error.message}`);
    return undefined;
  }
}

function describe(ctx: Ctx, s: Silence): string {
  const when = s.status.state === 'pending' ? `from ${timeOf(ctx, Date.parse(s.startsAt))} ` : '';
  const why = s.comment ? `: ${s.comment}` : '';
  return `• ${s.id} ${s.matchers.map(formatSilenceMatcher).join(', ')} ${when}until ${timeOf(ctx, Date.parse(s.endsAt))}, by ${s.createdBy}${why}`;
}

/** An instant as the tenant reads it: `3 Dec 2026, 14:30` in its zone. */
function timeOf(ctx: Ctx, ms: number): string {
  return new Intl.DateTimeFormat(ctx.tenant.locale || 'en-GB', { timeZone: ctx.tenant.timezone, dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}
