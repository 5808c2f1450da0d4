import { readFileSync } from 'node:fs';
import { testBot } from 'intrabot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeedServer, type FeedServer } from './feed-server';

const COMPANY = 1;
const ENGINEERING = 3;
// Thursday, 3 December 2026, 09:00 in Berlin
const NOW = '2026-12-03T08:00:00Z';
const MINUTE = 60_000;
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

let site: FeedServer;
beforeAll(async () => (site = await startFeedServer()));
afterAll(async () => site?.close());

/** The bot with the given feeds (each `{ name, path }` on the test's feed site, posting on Company). */
function feedsBot(feeds: { name: string; path: string; [option: string]: unknown }[], config: Record<string, unknown> = {}) {
  return testBot(new URL('.', import.meta.url), {
    now: NOW,
    walls: { Company: COMPANY, Engineering: ENGINEERING },
    config: { feeds: feeds.map(({ path, ...feed }) => ({ url: site.url(path), target: 'news', ...feed })), timeout: '2s', ...config },
  });
}
const requestsTo = (path: string) => site.requests.filter((r) => r.path === path);

describe('feeds: posting new items', () => {
  it("posts only a new feed's newest first_poll items, oldest first, with their images; the older ones are never posted", async () => {
    site.answer('/first/rss2.xml', { body: fixture('rss2.xml') });
    const bot = await feedsBot([{ name: 'blog', path: '/first/rss2.xml', first_poll: 2 }]);
    const sent = await bot.job('poll');
    expect(sent).toEqual([
      {
        kind: 'post',
        wall: COMPANY,
        text: '📰 Acme Engineering Blog: Dark mode for the kiosk view\n\nThe kiosk view follows the theme of the device now.\n\nhttps://blog.acme.example/2026/11/dark-mode',
        media: [{ type: 'image', filename: 'dark.png' }],
      },
      {
        kind: 'post',
        wall: COMPANY,
        text: [
          '📰 Acme Engineering Blog: Search across walls is here',
          '',
          'You can now search every wall at once & filter by author.\nRead on for how we built it.',
          '',
          'https://blog.acme.example/2026/12/search-across-walls',
        ].join('\n'),
        media: [{ type: 'image', filename: 'search.png' }],
      },
    ]);
    // the feed drops its newest item and changes: the two marked seen on the first read stay unposted
    site.answer('/first/rss2.xml', { body: fixture('rss2.xml').replace(/<item>\s*<title>Search across walls[\s\S]*?<\/item>/, '') });
    bot.clock.advance(30 * MINUTE);
    expect(await bot.job('poll')).toEqual([]);
  });

  it('posts an item once, however often the feed is read: by its guid, else its link', async () => {
    site.answer('/once/rss2.xml', { body: fixture('rss2.xml') });
    const bot = await feedsBot([{ name: 'blog', path: '/once/rss2.xml', first_poll: 0 }]);
    expect(await bot.job('poll')).toEqual([]);
    // a new item with a guid, one with only a link, and the known ones edited (a new title, the same guid)
    const added = fixture('rss2.xml')
      .replace('Search across walls is here', 'Search across walls is here (updated)')
      .replace(
        '<item>',
        '<item><title>Kudos 2.0</title><link>https://blog.acme.example/2026/12/kudos</link><guid isPermaLink="false">acme-blog-320</guid><pubDate>Thu, 03 Dec 2026 09:00:00 +0000</pubDate></item>' +
          '<item><title>Office hours</title><link>https://blog.acme.example/2026/12/office-hours</link><pubDate>Thu, 03 Dec 2026 08:30:00 +0000</pubDate></item><item>',
      );
    site.answer('/once/rss2.xml', { body: added });
    bot.clock.advance(30 * MINUTE);
    expect((await bot.job('poll')).map((s) => ('text' in s ? s.text.split('\n')[0] : ''))).toEqual([
      '📰 Acme Engineering Blog: Office hours',
      '📰 Acme Engineering Blog: Kudos 2.0',
    ]);
    bot.clock.advance(30 * MINUTE);
    expect(await bot.job('poll')).toEqual([]);
    // a rerun of the same slot (intrabot run, a retry) reads nothing new either
    expect(await bot.job('poll')).toEqual([]);
  });

  it('reads an Atom feed and a JSON Feed into the same posts, with media:thumbnail and JSON Feed images', async () => {
    const bot = await feedsBot([
      { name: 'status', path: '/atom.xml', first_poll: 1 },
      { name: 'people', path: '/json-feed.json', first_poll: 1, target: { wall: 'Engineering' } },
    ]);
    const sent = await bot.job('poll');
    expect(sent).toEqual(
      expect.arrayContaining([
        {
          kind: 'post',
          wall: COMPANY,
          text: '📰 Acme status updates: Maintenance: chat & DMs, Saturday 02:00\n\nChat and direct messages will be read-only for up to 30 minutes.\n\nhttps://status.acme.example/incidents/42',
          media: [{ type: 'image', filename: 'maintenance.png' }],
        },
        {
          kind: 'post',
          wall: ENGINEERING,
          text: '📰 Acme People news: Winter party on 18 December\n\nJoin us in the atrium from 17:00.\n\nhttps://people.acme.example/news/winter-party',
          media: [{ type: 'image', filename: 'party.png' }],
        },
      ]),
    );
    expect(sent).toHaveLength(2);
  });

  it('posts the item without its image when the image cannot be downloaded', async () => {
    site.answer('/images/search.png', { status: 404 });
    try {
      const bot = await feedsBot([{ name: 'blog', path: '/rss2.xml', first_poll: 1 }]);
      const [post] = await bot.job('poll');
      expect(post).toEqual({ kind: 'post', wall: COMPANY, text: expect.stringContaining('Search across walls is here') });
      expect(bot.logs).toContainEqual(expect.objectContaining({ level: 'warn', message: `image ${site.base}/images/search.png left out: answered 404` }));
    } finally {
      site.answer('/images/search.png', undefined);
    }
  });

  it("neutralises @ mentions in a feed's text", async () => {
    site.answer('/mention.json', {
      body: JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'T', items: [{ id: '1', title: 'Hi @all', content_text: 'ping @everyone' }] }),
    });
    const bot = await feedsBot([{ name: 'mention', path: '/mention.json', first_poll: 1 }]);
    const [post] = await bot.job('poll');
    expect(post).toMatchObject({ text: expect.not.stringContaining('@') });
  });
});

describe('feeds: reading politely', () => {
  it('reads with a conditional GET: an unchanged feed answers 304 and posts nothing', async () => {
    const bot = await feedsBot([{ name: 'blog', path: '/rss2.xml', first_poll: 1 }]);
    await bot.job('poll');
    bot.clock.advance(30 * MINUTE);
    expect(await bot.job('poll')).toEqual([]);
    const [first, second] = requestsTo('/rss2.xml').slice(-2);
    expect(first!.headers['if-none-match']).toBeUndefined();
    expect(second!.headers['if-none-match']).toMatch(/^"[0-9a-f]{16}"$/);
  });

  it('reads each feed on its own interval: not before its every has passed', async () => {
    site.answer('/every.xml', { body: fixture('atom.xml') });
    const bot = await feedsBot([{ name: 'status', path: '/every.xml', every: '1h' }]);
    await bot.job('poll');
    bot.clock.advance(30 * MINUTE);
    await bot.job('poll');
    expect(requestsTo('/every.xml')).toHaveLength(1);
    bot.clock.advance(30 * MINUTE);
    await bot.job('poll');
    expect(requestsTo('/every.xml')).toHaveLength(2);
  });

  it('fetches nothing and says so at debug when no feed has a url (the example as it comes)', async () => {
    const bot = await testBot(new URL('.', import.meta.url), { now: NOW, env: { FEEDS_URL: '' } });
    const before = site.requests.length;
    expect(await bot.job('poll')).toEqual([]);
    expect(site.requests).toHaveLength(before);
    expect(bot.logs).toContainEqual({ level: 'debug', message: 'no feed has a url: nothing to read' });
  });
});

describe('feeds: a feed that fails', () => {
  it('a feed that answers 500, hangs or is malformed is logged and tried again at its next poll, and the others are posted', async () => {
    site.answer('/hangs.xml', { hang: true });
    const bot = await feedsBot(
      [
        { name: 'broken', path: '/broken.xml' },
        { name: 'hangs', path: '/hangs.xml' },
        { name: 'malformed', path: '/malformed.xml' },
        { name: 'people', path: '/json-feed.json', first_poll: 1 },
      ],
      { timeout: '1s' },
    );
    site.answer('/broken.xml', { status: 500 });
    const sent = await bot.job('poll');
    expect(sent).toEqual([expect.objectContaining({ text: expect.stringContaining('Winter party') })]);
    const warnings = bot.logs.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings).toEqual(
      expect.arrayContaining([
        `feed broken could not be read (1 in a row): ${site.base}/broken.xml answered 500`,
        `feed hangs could not be read (1 in a row): ${site.base}/hangs.xml did not answer within 1000 ms`,
        expect.stringMatching(/^feed malformed could not be read \(1 in a row\): not a feed: /),
      ]),
    );
    // it works again: the next poll reads it
    site.answer('/broken.xml', { body: fixture('atom.xml') });
    site.answer('/hangs.xml', undefined);
    bot.clock.advance(30 * MINUTE);
    expect(await bot.job('poll')).toEqual(expect.arrayContaining([expect.objectContaining({ text: expect.stringContaining('Acme status updates') })]));
  });

  it('reports a feed on the ops wall after report_after failures in a row, once, and again when it works', async () => {
    site.answer('/flaky.xml', { status: 503 });
    const bot = await feedsBot([{ name: 'flaky', path: '/flaky.xml', first_poll: 0 }], { report_after: 2, report_to: 'ops' });
    expect(await bot.job('poll')).toEqual([]);
    bot.clock.advance(30 * MINUTE);
    expect(await bot.job('poll')).toEqual([
      {
        kind: 'post',
        wall: ENGINEERING,
        text: `⚠️ Feed flaky cannot be read: ${site.base}/flaky.xml answered 503\n2 reads in a row have failed since 3 Dec 2026, 09:00; it is tried again every 30m.`,
      },
    ]);
    bot.clock.advance(30 * MINUTE);
    expect(await bot.job('poll')).toEqual([]);
    site.answer('/flaky.xml', { body: fixture('atom.xml') });
    bot.clock.advance(30 * MINUTE);
    expect(await bot.job('poll')).toEqual([{ kind: 'post', wall: ENGINEERING, text: '✅ Feed flaky can be read again, after 3 failed reads.' }]);
  });
});

describe('feeds: configuration', () => {
  it('refuses a feed url that is not http or https, naming the field', async () => {
    await expect(feedsBot([{ name: 'x', path: '/x' }], { feeds: [{ name: 'x', url: 'ftp://example.com/feed' }] })).rejects.toThrow(/config\.feeds\.0\.url/);
  });

  it('refuses two feeds of one name, naming the second', async () => {
    await expect(
      feedsBot([
        { name: 'blog', path: '/rss2.xml' },
        { name: 'blog', path: '/atom.xml' },
      ]),
    ).rejects.toThrow(/config\.feeds\.1\.name: another feed is named "blog"/);
  });
});
