import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { htmlToText, parseFeed, UnparsableDocumentError } from '../../../src/bots/helpers';

// the feeds example bot's fixtures: real-world-shaped documents of each format (their README cites the specs)
const fixture = (name: string) => readFileSync(new URL(`../../../bots/feeds/fixtures/${name}`, import.meta.url), 'utf8');
const IMAGES = 'http://127.0.0.1:8080/images';

describe('parseFeed: RSS, Atom and JSON Feed read into one shape', () => {
  it('reads RSS 2.0 items: guid, else link, as the id; the description as plain text; enclosure and media:content images', () => {
    const feed = parseFeed(fixture('rss2.xml'));
    expect(feed).toMatchObject({ format: 'rss', title: 'Acme Engineering Blog', link: 'https://blog.acme.example/' });
    expect(feed.items.map((i) => i.id)).toEqual([
      'acme-blog-311',
      'https://blog.acme.example/2026/11/dark-mode',
      // no guid: the link identifies it
      'https://blog.acme.example/2026/11/postgresql',
      'acme-blog-1',
    ]);
    expect(feed.items[0]).toEqual({
      id: 'acme-blog-311',
      link: 'https://blog.acme.example/2026/12/search-across-walls',
      title: 'Search across walls is here',
      summary: 'You can now search every wall at once & filter by author.\nRead on for how we built it.',
      published: '2026-12-03T08:00:00.000Z',
      image: `${IMAGES}/search.png`,
      authors: [],
    });
    expect(feed.items[1]!.image).toBe(`${IMAGES}/dark.png`);
    expect(feed.items[2]!.image).toBeUndefined();
  });

  it('reads Atom entries: id, the alternate link, an HTML title and summary as text, media:thumbnail, updated when not published', () => {
    const feed = parseFeed(fixture('atom.xml'));
    expect(feed).toMatchObject({ format: 'atom', title: 'Acme status updates', link: 'https://status.acme.example/' });
    expect(feed.items[0]).toEqual({
      id: 'tag:status.acme.example,2026:incident/42',
      link: 'https://status.acme.example/incidents/42',
      title: 'Maintenance: chat & DMs, Saturday 02:00',
      summary: 'Chat and direct messages will be read-only for up to 30 minutes.',
      published: '2026-12-03T07:45:00.000Z',
      image: `${IMAGES}/maintenance.png`,
      authors: ['Acme Ops'],
    });
    expect(feed.items[1]).toMatchObject({ summary: 'Logins are fast again.', published: '2026-12-01T12:10:00.000Z' });
  });

  it('reads JSON Feed 1.1 items: id, url, image, and an item without a title', () => {
    const feed = parseFeed(fixture('json-feed.json'));
    expect(feed).toMatchObject({ format: 'json', title: 'Acme People news' });
    expect(feed.items[0]).toMatchObject({
      id: 'people-2026-12-02',
      link: 'https://people.acme.example/news/winter-party',
      summary: 'Join us in the atrium from 17:00.',
      published: '2026-12-02T09:00:00.000Z',
      image: `${IMAGES}/party.png`,
    });
    expect(feed.items[1]).toMatchObject({ id: 'people-2026-11-20', summary: 'Open enrolment for benefits runs until 30 November.' });
    expect(feed.items[1]!.title).toBeUndefined();
  });

  it('identifies an item with neither guid nor link by a hash of its title and date, the same on every read', () => {
    const rss =
      '<rss version="2.0"><channel><title>t</title><item><title>Only a title</title><pubDate>Tue, 01 Dec 2026 10:00:00 GMT</pubDate></item></channel></rss>';
    const [first] = parseFeed(rss).items;
    expect(first!.id).toMatch(/^sha256:[0-9a-f]{32}$/);
    expect(parseFeed(rss).items[0]!.id).toBe(first!.id);
  });

  it('refuses malformed XML, malformed JSON and documents that are no feed, with UnparsableDocumentError', () => {
    expect(() => parseFeed(fixture('malformed.xml'))).toThrow(UnparsableDocumentError);
    expect(() => parseFeed('{"version": "https://jsonfeed.org/version/1.1", "items": [')).toThrow(/malformed JSON/);
    expect(() => parseFeed('<html><body>Not found</body></html>')).toThrow(/not a feed/);
  });
});

describe('htmlToText', () => {
  it('keeps paragraphs and list items as lines, drops tags and scripts, decodes references', () => {
    expect(htmlToText('<p>One &amp; <em>two</em></p><script>alert(1)</script><ul><li>a</li><li>b&#233;</li></ul>')).toBe('One & two\n• a\n• bé');
  });
});
