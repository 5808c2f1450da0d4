import { createHash } from 'node:crypto';
import { parseFeed as parseAnyFeed } from 'feedsmith';
import { z } from 'zod';
import { IntrabotError } from '../../errors';
import { htmlToText } from './html-text';

/** A feed or calendar could not be parsed; the message says why. */
export class UnparsableDocumentError extends IntrabotError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('unparsable_document', message, options);
  }
}

/** One item of a feed, in the same shape whatever the format. */
export const FeedItemSchema = z.object({
  /** What identifies the item across polls: its guid (RSS), id (Atom, JSON Feed), else its link, else a hash of its title and date. */
  id: z.string(),
  link: z.string().optional(),
  title: z.string().optional(),
  /** The item's summary (or content) as plain text. */
  summary: z.string().optional(),
  /** When it was published (else updated), ISO 8601 in UTC; absent when the feed gives no readable date. */
  published: z.string().optional(),
  /** An image of the item: an image enclosure, `media:content` / `media:thumbnail`, JSON Feed's `image`. */
  image: z.string().optional(),
  authors: z.array(z.string()),
});
export type FeedItem = z.infer<typeof FeedItemSchema>;

export const ParsedFeedSchema = z.object({
  format: z.enum(['rss', 'atom', 'rdf', 'json']),
  title: z.string().optional(),
  link: z.string().optional(),
  /** In the feed's own order (usually newest first). */
  items: z.array(FeedItemSchema),
});
export type ParsedFeed = z.infer<typeof ParsedFeedSchema>;

type Loose = Record<string, unknown>;
const obj = (v: unknown): Loose => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const str = (v: unknown): string | undefined => {
  const text = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : typeof obj(v).value === 'string' ? (obj(v).value as string) : undefined;
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
};

/**
 * Parses an RSS 0.9x/2.0, Atom 0.3/1.0, RDF or JSON Feed 1.0/1.1 document (as text) into one plain
 * shape (feedsmith reads the formats and their namespaces). HTML in titles and summaries becomes
 * plain text. Throws `UnparsableDocumentError` for anything else: malformed XML or JSON, or another
 * kind of document.
 *
 * @example
 * const feed = parseFeed(await (await fetch(url)).text());
 * for (const item of feed.items) console.log(item.id, item.title, item.link, item.image);
 */
export function parseFeed(text: string): ParsedFeed {
  const trimmed = text.trim();
  let input: unknown = trimmed;
  if (trimmed.startsWith('{')) {
    try {
      input = JSON.parse(trimmed);
    } catch (error) {
      throw new UnparsableDocumentError(`not a feed: malformed JSON (${(error as Error).message})`, { cause: error });
    }
  }
  let parsed: { format: string; feed: unknown };
  try {
    parsed = parseAnyFeed(input as string) as { format: string; feed: unknown };
  } catch (error) {
    throw new UnparsableDocumentError(`not a feed: ${(error as Error).message} (RSS, Atom, RDF or JSON Feed expected)`, { cause: error });
  }
  const feed = obj(parsed.feed);
  switch (parsed.format) {
    case 'atom':
      return { format: 'atom', ...plainTitle(feed.title), ...atomLink(feed.links), items: arr(feed.entries).map((e) => atomItem(obj(e))) };
    case 'json':
      return { format: 'json', ...plainTitle(feed.title), ...opt('link', str(feed.home_page_url)), items: arr(feed.items).map((e) => jsonItem(obj(e))) };
    case 'rss':
    case 'rdf':
      return { format: parsed.format, ...plainTitle(feed.title), ...opt('link', str(feed.link)), items: arr(feed.items).map((e) => rssItem(obj(e))) };
    default:
      throw new UnparsableDocumentError(`not a feed: format ${parsed.format} is not read`);
  }
}

const opt = <K extends string>(key: K, value: string | undefined): { [P in K]?: string } =>
  value === undefined ? {} : ({ [key]: value } as { [P in K]: string });

function plainTitle(value: unknown): { title?: string } {
  const title = str(value);
  return opt('title', title === undefined ? undefined : htmlToText(title) || undefined);
}

function summaryOf(...candidates: unknown[]): { summary?: string } {
  for (const candidate of candidates) {
    const text = str(candidate);
    if (text) return opt('summary', htmlToText(text) || undefined);
  }
  return {};
}

function isoOf(...candidates: unknown[]): { published?: string } {
  for (const candidate of candidates) {
    const text = str(candidate);
    const ms = text === undefined ? Number.NaN : Date.parse(text);
    if (Number.isFinite(ms)) return { published: new Date(ms).toISOString() };
  }
  return {};
}

const IMAGE_FILE = /\.(png|jpe?g|gif|webp|avif)(\?|$)/i;
const isImage = (type: string | undefined, url: string | undefined, medium?: string) =>
  url !== undefined &&
  (medium === 'image' || (type ?? '').startsWith('image/') || ((type === undefined || type === '') && medium === undefined && IMAGE_FILE.test(url)));

/** The first image among media:content (also in media:group), media:thumbnail and image enclosures. */
function imageOf(item: Loose, enclosures: unknown[]): string | undefined {
  const media = obj(item.media);
  const contents = [...arr(media.contents), ...arr(media.groups).flatMap((g) => arr(obj(g).contents))].map(obj);
  const fromContent = contents.find((c) => isImage(str(c.type), str(c.url), str(c.medium)));
  if (fromContent) return str(fromContent.url);
  const thumbnail = [...arr(media.thumbnails), ...contents.flatMap((c) => arr(c.thumbnails))].map(obj).find((t) => str(t.url));
  if (thumbnail) return str(thumbnail.url);
  const enclosure = enclosures.map(obj).find((e) => isImage(str(e.type), str(e.url ?? e.href)));
  return enclosure ? str(enclosure.url ?? enclosure.href) : undefined;
}

/** The item's id: what the feed names it, else its link, else a hash of what it says. */
function idOf(given: string | undefined, link: string | undefined, title: string | undefined, date: string | undefined): string {
  return (
    given ??
    link ??
    `sha256:${createHash('sha256')
      .update(`${title ?? ''}\n${date ?? ''}`)
      .digest('hex')
      .slice(0, 32)}`
  );
}

interface ItemParts {
  id?: string | undefined;
  link?: string | undefined;
  /** Plain text already. */
  title?: string | undefined;
  summary: { summary?: string };
  date: { published?: string };
  image?: string | undefined;
  authors: unknown[];
}

function item(parts: ItemParts): FeedItem {
  const title = parts.title;
  return {
    id: idOf(parts.id, parts.link, title, parts.date.published),
    ...opt('link', parts.link),
    ...opt('title', title),
    ...parts.summary,
    ...parts.date,
    ...opt('image', parts.image),
    authors: parts.authors.map((a) => str(obj(a).name) ?? str(a)).filter((a): a is string => a !== undefined),
  };
}

function rssItem(e: Loose): FeedItem {
  const dc = obj(e.dc);
  return item({
    id: str(obj(e.guid).value ?? e.guid),
    link: str(e.link),
    title: plainTitle(e.title ?? dc.title).title,
    summary: summaryOf(e.description, obj(e.content).encoded),
    date: isoOf(e.pubDate, dc.date, ...arr(dc.dates)),
    image: imageOf(e, arr(e.enclosures)),
    authors: [...arr(e.authors), ...arr(dc.creators), ...arr(dc.creator)],
  });
}

function atomLink(links: unknown): { link?: string } {
  const all = arr(links).map(obj);
  const alternate = all.find((l) => (str(l.rel) ?? 'alternate') === 'alternate') ?? all[0];
  return opt('link', alternate ? str(alternate.href) : undefined);
}

function atomItem(e: Loose): FeedItem {
  const enclosures = arr(e.links)
    .map(obj)
    .filter((l) => str(l.rel) === 'enclosure');
  return item({
    id: str(e.id),
    ...atomLink(arr(e.links).filter((l) => str(obj(l).rel) !== 'enclosure')),
    title: plainTitle(e.title).title,
    summary: summaryOf(e.summary, e.content),
    date: isoOf(e.published, e.updated),
    image: imageOf(e, enclosures),
    authors: arr(e.authors),
  });
}

function jsonItem(e: Loose): FeedItem {
  const attachments = arr(e.attachments).map((a) => ({ url: str(obj(a).url), type: str(obj(a).mime_type) }));
  return item({
    id: str(e.id),
    link: str(e.url) ?? str(e.external_url),
    // JSON Feed's title is plain text (no HTML to strip)
    title: str(e.title),
    summary: summaryOf(e.summary, e.content_text, e.content_html),
    date: isoOf(e.date_published, e.date_modified),
    image: str(e.image) ?? str(e.banner_image) ?? attachments.find((a) => isImage(a.type, a.url))?.url,
    authors: [...arr(e.authors), ...arr(e.author)],
  });
}
