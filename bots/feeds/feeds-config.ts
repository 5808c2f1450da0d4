import { DurationSchema, SlugSchema, z } from 'intrabot';

/** A target name from the manifest's `targets`, or a wall by id or name. */
const TargetRefSchema = z.union([z.string().min(1), z.strictObject({ wall: z.union([z.int().positive(), z.string().min(1)]) })]);

/** One feed: where it is, where its items go, how often it is read. */
export const FeedSchema = z.strictObject({
  /** A slug: it names the feed in the store, the log and reports. */
  name: SlugSchema,
  /** The feed's URL (http or https); empty: the feed is off (the example's default). */
  url: z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'url must be an http or https URL, or empty (off)' })]),
  target: TargetRefSchema.default('news'),
  /** How often the feed is read (the poll job runs more often and reads the feeds that are due). */
  every: DurationSchema.default(30 * 60_000),
  /** How many of a new feed's items are posted on its first read; the others count as seen. */
  first_poll: z.int().min(0).default(3),
  /** At most this many items a read (the newest); more new ones at once (a feed that renumbered its items) count as seen. */
  max_per_poll: z.int().positive().default(10),
  /** Upload the item's image with the post. */
  images: z.boolean().default(true),
  /** At most this many characters of an item's summary. */
  summary_length: z.int().min(0).default(400),
});
export type Feed = z.output<typeof FeedSchema>;

/** The feed bot's `config` in bot.yaml. */
export const FeedsConfigSchema = z.object({
  feeds: z
    .array(FeedSchema)
    .default([])
    .superRefine((feeds, ctx) => {
      const seen = new Set<string>();
      feeds.forEach((feed, i) => {
        if (seen.has(feed.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `another feed is named "${feed.name}"` });
        seen.add(feed.name);
      });
    }),
  /** How long one feed may take to answer. */
  timeout: DurationSchema.default(10_000),
  /** Failed reads in a row before a feed is reported on `report_to`. */
  report_after: z.int().positive().default(3),
  /** Where failing feeds are reported: a target name or `{ wall }`; empty: only the log. */
  report_to: z.union([z.literal(''), TargetRefSchema]).default(''),
  /** How long an item is remembered as posted; an older item is never posted. */
  remember: DurationSchema.default(180 * 86_400_000),
});
export type FeedsConfig = z.output<typeof FeedsConfigSchema>;
