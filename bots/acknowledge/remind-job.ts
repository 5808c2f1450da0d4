import type { BotContext, JobRun } from 'intrabot';
import type { AcknowledgeConfig } from './acknowledge-config';
import { sendReport } from './report';
import {
  confirmedAt,
  getPage,
  getReminded,
  getRound,
  KEEP_MS,
  markConfirmed,
  openRounds,
  type Recipient,
  type Round,
  savePage,
  saveRound,
  setOpenRounds,
  setReminded,
} from './rounds';
import { inWorkingHours } from './working-hours';

/** spec: Pagination, per_page maximum 50. */
const PER_PAGE = 50;
const SINCE_KEY = 'confirmations-since';

type Ctx = BotContext<AcknowledgeConfig>;

/**
 * The remind job, for every open round: reads its audience into the store page by page, catches up
 * on confirmations, sends the reminder round that is due to whoever has not confirmed (page by page,
 * at most `per_run` a run, only in working hours) and, `close_after` after publication, closes the
 * round with the final report to its author. Every step saves where it got to, so a run that stops
 * is carried on by the next one, and nobody gets a round's reminder twice.
 */
export async function remind(ctx: Ctx, _run: JobRun): Promise<void> {
  if (!inWorkingHours(ctx.now(), ctx.tenant.timezone, ctx.config.working_hours)) {
    ctx.log.debug('outside working hours: no reminders now');
    return;
  }
  const ids = await openRounds(ctx.store);
  if (ids.length === 0) return;
  await catchUpConfirmations(ctx, ids);
  const budget = { left: ctx.config.per_run };
  for (const id of ids) {
    if (ctx.signal.aborted) return;
    const round = await getRound(ctx.store, id);
    if (!round || round.closed) {
      await closeInIndex(ctx, id);
      continue;
    }
    if (!round.audience.complete && !(await readAudience(ctx, round))) continue;
    // a round that has ended gets its report, not one more reminder
    if (ctx.now() >= round.publishedAt + ctx.config.close_after) await close(ctx, round);
    else await remindDue(ctx, round, budget);
  }
}

/**
 * New confirmations since the last run (`GET /confirmations?since=`, newest first), for the
 * `announcement.confirmed` deliveries that were missed (the bot was down, the deliveries' retries spent).
 */
async function catchUpConfirmations(ctx: Ctx, ids: number[]): Promise<void> {
  const tracked = new Set(ids);
  const since = (await ctx.store.get<string>(SINCE_KEY)) ?? new Date(ctx.now() - ctx.config.close_after).toISOString();
  let newest = since;
  for await (const confirmation of ctx.api.confirmations.all({ since, per_page: PER_PAGE })) {
    const id = Number(confirmation.announcement_id);
    if (tracked.has(id)) await markConfirmed(ctx.store, id, Number(confirmation.user.id), confirmation.confirmed_at);
    if (Date.parse(confirmation.created_at) > Date.parse(newest)) newest = confirmation.created_at;
  }
  await ctx.store.set(SINCE_KEY, newest, { ttlMs: KEEP_MS });
}

/**
 * Reads the round's audience, one page of the directory at a time (the groups' members, or everyone
 * for a company-wide announcement; employees only), saving each page and the cursor; then the
 * confirmations made before the round started. True once the audience is complete.
 */
async function readAudience(ctx: Ctx, round: Round): Promise<boolean> {
  const queries: { group_id?: number }[] = round.groups.length === 0 ? [{}] : round.groups.map((group_id) => ({ group_id }));
  const a = round.audience;
  while (a.group < queries.length) {
    if (ctx.signal.aborted) return false;
    const result = await ctx.api.users.list({ ...queries[a.group], page: a.page, per_page: PER_PAGE });
    const recipients: Recipient[] = result.data
      .filter((u) => u.type === 'default')
      .map((u) => ({ id: Number(u.id), name: u.name, first_name: u.first_name, email: u.email }));
    await savePage(ctx.store, round.id, a.pages, recipients);
    a.pages++;
    const lastPage = typeof result.meta?.last_page === 'number' ? result.meta.last_page : undefined;
    const more = Boolean(result.links?.next) || (lastPage !== undefined && a.page < lastPage);
    if (more) a.page++;
    else Object.assign(a, { group: a.group + 1, page: 1 });
    await saveRound(ctx.store, round);
    ctx.progress(`"${round.title}": read ${a.pages} pages of the audience`);
  }
  for await (const confirmation of ctx.api.announcements.allConfirmations(round.id, { per_page: PER_PAGE })) {
    await markConfirmed(ctx.store, round.id, Number(confirmation.user.id), confirmation.confirmed_at);
  }
  a.complete = true;
  await saveRound(ctx.store, round);
  return true;
}

/** The reminder round due now: 0 before `remind_after`, then one more each `remind_every`, up to `max_reminders`. */
export function dueRound(publishedAt: number, now: number, config: Pick<AcknowledgeConfig, 'remind_after' | 'remind_every' | 'max_reminders'>): number {
  const elapsed = now - publishedAt - config.remind_after;
  if (config.max_reminders === 0 || elapsed < 0) return 0;
  return Math.min(config.max_reminders, Math.floor(elapsed / config.remind_every) + 1);
}

async function remindDue(ctx: Ctx, round: Round, budget: { left: number }): Promise<void> {
  const due = dueRound(round.publishedAt, ctx.now(), ctx.config);
  if (due <= round.remindedRound) return;
  // a walk left for an older round (a large audience, a short remind_every) starts again for this one
  if (round.walkRound !== due) Object.assign(round, { walkRound: due, remindPage: 0 });
  let sent = 0;
  for (let page = round.remindPage; page < round.audience.pages; page++) {
    if (budget.left <= 0 || ctx.signal.aborted || !inWorkingHours(ctx.now(), ctx.tenant.timezone, ctx.config.working_hours)) {
      // carried on by the next run, from this page
      round.remindPage = page;
      await saveRound(ctx.store, round);
      ctx.log.info('reminders paused; the next run carries on', { announcement: round.id, round: due, page, sent });
      return;
    }
    for (const user of await getPage(ctx.store, round.id, page)) {
      if ((await confirmedAt(ctx.store, round.id, user.id)) !== undefined) continue;
      const reminded = await getReminded(ctx.store, round.id, user.id);
      if (reminded.round >= due || reminded.count >= ctx.config.max_reminders) continue;
      // marked first: a crash between the two loses one reminder rather than sending a second
      await setReminded(ctx.store, round.id, user.id, { count: reminded.count + 1, round: due });
      await ctx.dm(user.id, {
        template: ctx.config.templates.reminder,
        data: { user, announcement: { id: round.id, title: round.title }, reminder: reminded.count + 1, of: ctx.config.max_reminders },
      });
      sent++;
      budget.left--;
    }
    round.remindPage = page + 1;
    await saveRound(ctx.store, round);
    ctx.progress(`"${round.title}": reminder round ${due}, page ${page + 1} of ${round.audience.pages}, ${sent} reminders queued`);
  }
  round.remindedRound = due;
  round.remindPage = 0;
  await saveRound(ctx.store, round);
  ctx.log.info('reminder round done', { announcement: round.id, round: due, sent });
}

async function close(ctx: Ctx, round: Round): Promise<void> {
  // marked first, as the reminders are: a crash between the two loses the report rather than doubling it
  round.closed = true;
  await saveRound(ctx.store, round);
  await sendReport(ctx, round, { final: true });
  await closeInIndex(ctx, round.id);
}

/** Read fresh just before the write, so a round a command started meanwhile is kept. */
async function closeInIndex(ctx: Ctx, id: number): Promise<void> {
  const open = await openRounds(ctx.store);
  await setOpenRounds(
    ctx.store,
    open.filter((other) => other !== id),
  );
}
