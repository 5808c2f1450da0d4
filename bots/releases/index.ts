import { defineBot, z } from 'intrabot';
import { plainReleaseNotes } from './plain-release-notes';

/**
 * Release notes and failed CI runs from GitHub and GitLab: everything comes in through the alert
 * inputs of bot.yaml (signed CI runs; release events by a mapping of our own), rendered with this
 * bot's templates; the middleware renders the release notes' markdown as plain text.
 */
export default defineBot({
  config: z.object({
    /** Alert inputs whose messages carry markdown: rendered as plain text before they are posted. */
    markdown_inputs: z.array(z.string()).default([]),
  }),
  use: [plainReleaseNotes],
});
