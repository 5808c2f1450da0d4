import type { BotContext } from 'intrabot';
import { claimOnce, conditionalGet, parseFeed, type FeedItem, type ParsedFeed } from 'intrabot/helpers';
import type { Feed, FeedsConfig } from './feeds-config';
import { emptyState, httpKey, itemKey, stateKey, type FeedState } from './feed-state';
import { itemImage } from './item-image';
import { newItems } from './new-items';

type Ctx = BotContext<FeedsConfig>;

/** What reading one feed came to. */
type Outcome = { feed: string; posted: number } | { feed: string; failed: string };

/** Feeds read at once: a slow one holds up only its own lane. */
const LANES = 4;
/** A feed is due this much before its interval is up, so a 30m feed on a 5-minute cron is read every 30 minutes, not 35. */
const DUE_SLACK_MS = 60_000;
const STATE_TTL_MS = 400 * 86_400_000;
const ACCEPT = 'application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.5';

/**
 * The poll job: reads each feed that is due (its `every` has passed since it was last tried), posts
 * what is new, and keeps how each read went. A feed that fails is logged, tried again when it is next
 * due, and reported on `report_to` after `report_after` failures in a row; it never stops the others.
 */
export async function pollJob(ctx: Ctx): Promise<void> {
  const feeds = ctx.config.feeds.filter((feed) => feed.url !== '');
  if (feeds.length === 0) return ctx.log.debug('no feed has a url: nothing to read');
  const due: { feed: Feed; state: FeedState }[] = [];
  for (const feed of feeds) {
    const state = (await ctx.store.get<FeedState>(stateKey(feed))) ?? emptyState();
    if (state.lastTriedAt === undefined || ctx.now() - state.lastTriedAt >= feed.every - DUE_SLACK_MS) due.push({ feed, state });
  }
  const outcomes = await inLanes(due, ({ feed, state }) => readFeed(ctx, feed, state));
  const failed = outcomes.filter((o) => 'failed' in o).map((o) => o.feed);
  const posted = outcomes.reduce((n, o) => n + ('posted' in o ? o.posted : 0), 0);
  const summary = `${due.length} of ${feeds.length} feeds read, ${posted} items posted${failed.length ? `, failing: ${failed.join(', ')}` : ''}`;
  ctx.progress(summary);
  ctx.log.info(summary, { read: due.length, posted, failing: failed });
}

/** Runs `work` over `items`, LANES at a time; a rejection is that item's alone, logged. */
async function inLanes<T>(items: readonly T[], work: (item: T) => Promise<Outcome>): Promise<Outcome[]> {
  const queue = [...items];
  const outcomes: Outcome[] = [];
  const lane = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) outcomes.push(await work(next));
  };
  await Promise.all(Array.from({ length: Math.min(LANES, items.length) }, lane));
  return outcomes;
}

/** One feed: a conditional GET, then its new items posted, its state kept. Never throws but for the job's own abort. */
async function readFeed(ctx: Ctx, feed: Feed, state: FeedState): Promise<Outcome> {
  const tried = ctx.now();
  try {
    const got = await conditionalGet(ctx, feed.url, { key: httpKey(feed), timeoutMs: ctx.config.timeout, accept: ACCEPT });
    let posted = 0;
    let ids = state.lastIds;
    if (!got.notModified) {
      const parsed = parseFeed(got.text ?? '');
      posted = await postNewItems(ctx, feed, parsed, state);
      ids = parsed.items.map((item) => item.id);
    }
    // the validators are kept once the items are: a read that failed half way reads the body again
    await got.commit();
    if (state.reported) await report(ctx, 'recovered', { feed: feed.name, failures: state.failures });
    await ctx.store.set(stateKey(feed), { firstReadAt: state.firstReadAt ?? tried, lastTriedAt: tried, lastIds: ids, failures: 0 } satisfies FeedState, {
      ttlMs: STATE_TTL_MS,
    });
    ctx.progress(`feed ${feed.name}: ${got.notModified ? 'not modified' : `${posted} new`}`);
    return { feed: feed.name, posted };
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return failedRead(ctx, feed, state, error, tried);
  }
}

async function postNewItems(ctx: Ctx, feed: Feed, parsed: ParsedFeed, state: FeedState): Promise<number> {
  const { post, seen } = newItems(parsed.items, state, feed, { now: ctx.now(), rememberMs: ctx.config.remember });
  // claimed without a post: a later read never posts them (the first poll's older items, a flood's)
  for (const item of seen) await claimOnce(ctx, itemKey(feed, item.id), ctx.config.remember);
  if (seen.length > 0) ctx.log.info(`feed ${feed.name}: ${seen.length} older items marked as seen, not posted`, { feed: feed.name });
  let posted = 0;
  for (const item of post) {
    // at most once: a crash between the claim and the queued post loses that item, never doubles it
    if (!(await claimOnce(ctx, itemKey(feed, item.id), ctx.config.remember))) continue;
    const image = feed.images && item.image ? await itemImage(ctx, item.image, ctx.config.timeout) : undefined;
    await ctx.post(feed.target, { template: 'item', data: itemData(feed, parsed, item), ...(image ? { media: [image] } : {}) });
    posted += 1;
  }
  return posted;
}

/** What the item template receives. */
function itemData(feed: Feed, parsed: ParsedFeed, item: FeedItem) {
  return {
    feed: { name: feed.name, title: parsed.title ?? feed.name, link: parsed.link },
    item: { ...item, summary: item.summary === undefined ? undefined : shorten(item.summary, feed.summary_length) },
  };
}

/** At most `max` characters, cut at a word and ended with `…`; 0 leaves the summary out. */
function shorten(text: string, max: number): string | undefined {
  if (max === 0) return undefined;
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const word = cut.lastIndexOf(' ');
  return `${(word > max / 2 ? cut.slice(0, word) : cut).trimEnd()}…`;
}

async function failedRead(ctx: Ctx, feed: Feed, state: FeedState, error: unknown, tried: number): Promise<Outcome> {
  const message = error instanceof Error ? error.message : String(error);
  const next: FeedState = { ...state, lastTriedAt: tried, failures: state.failures + 1, failingSince: state.failingSince ?? tried, lastError: message };
  ctx.log.warn(`feed ${feed.name} could not be read (${next.failures} in a row): ${message}`, { feed: feed.name, failures: next.failures });
  if (!state.reported && next.failures >= ctx.config.report_after && ctx.config.report_to !== '') {
    next.reported = await report(ctx, 'failing', {
      feed: feed.name,
      error: message,
      failures: next.failures,
      since: next.failingSince,
      every: durationText(feed.every),
    });
  }
  await ctx.store.set(stateKey(feed), next, { ttlMs: STATE_TTL_MS });
  return { feed: feed.name, failed: message };
}

/** A post on `report_to`; true once queued. A report that cannot be sent is logged: it must not hide the feed's own error. */
async function report(ctx: Ctx, template: 'failing' | 'recovered', data: Record<string, unknown>): Promise<boolean> {
  if (ctx.config.report_to === '') return false;
  try {
    await ctx.post(ctx.config.report_to, { template, data });
    return true;
  } catch (error) {
    ctx.log.error(`feed ${String(data.feed)}: the ${template} report could not be queued: ${(error as Error).message}`);
    return false;
  }
}

function durationText(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
  ] as const)
    if (ms % size === 0) return `${ms / size}${unit}`;
  return `${Math.round(ms / 1000)}s`;
}
