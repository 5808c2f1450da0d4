import { defineBot } from 'intrabot';
import { FeedsConfigSchema } from './feeds-config';
import { pollJob } from './poll-job';

/**
 * RSS, Atom and JSON feeds on walls: the `poll` job reads the feeds that are due with conditional
 * GETs, posts each new item once (its image uploaded with it), and reports a feed that keeps failing.
 */
export default defineBot({
  config: FeedsConfigSchema,
  jobs: { poll: pollJob },
});
