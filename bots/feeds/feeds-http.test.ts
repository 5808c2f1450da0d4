import { fileURLToPath } from 'node:url';
import { startPair, type Pair } from 'intrabot/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFeedServer, type FeedServer } from './feed-server';

interface WallPost {
  body: string;
  author: { id: number };
  media: { type: string; filename: string; mime_type: string }[];
}

/** This bot's name, as the runtime knows it. */
const BOT = 'feeds';
let pair: Pair;
let site: FeedServer;

// End to end: the feed read over real HTTP from a local feed site, its items posted through the
// runtime's outbox on the sandbox's Company wall, the images uploaded through POST /media.
beforeAll(async () => {
  site = await startFeedServer();
  pair = await startPair({
    bots: [BOT],
    botsDir: fileURLToPath(new URL('..', import.meta.url)),
    start: Date.parse('2026-12-03T08:00:00Z'),
    env: { FEEDS_URL: site.url('/rss2.xml') },
  });
});
afterAll(async () => {
  await pair?.close();
  await site?.close();
});

it("posts a new feed's newest items on the wall with their images, and nothing more when it is read again unchanged", async () => {
  const wall = (await pair.refs()).company_wall_id;
  const ours = async () => ((await pair.platform.wallPosts(wall)) as unknown as WallPost[]).filter((p) => p.body.startsWith('📰 Acme Engineering Blog'));
  await pair.runJob(BOT, 'poll');
  await pair.settle({ advanceClock: true });
  const posts = await pair.platform.waitFor(ours, (p) => p.length >= 3);
  // newest first on the wall: the bot posted the three newest, oldest first
  expect(posts.map((p) => p.body.split('\n')[0])).toEqual([
    '📰 Acme Engineering Blog: Search across walls is here',
    '📰 Acme Engineering Blog: Dark mode for the kiosk view',
    '📰 Acme Engineering Blog: Why we moved to PostgreSQL',
  ]);
  expect(posts[0]!.author.id).toBe(pair.botUserId(BOT));
  expect(posts[0]!.media).toEqual([expect.objectContaining({ type: 'image', filename: 'search.png', mime_type: 'image/png' })]);
  expect(posts[2]!.media).toEqual([]);

  await pair.platform.advance(30 * 60);
  await pair.runJob(BOT, 'poll');
  await pair.settle({ advanceClock: true });
  expect(await ours()).toHaveLength(3);
  const reads = site.requests.filter((r) => r.path === '/rss2.xml');
  expect(reads.at(-1)!.headers['if-none-match']).toBeDefined();
});
